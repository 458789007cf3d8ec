import { RE2JS } from 're2js';
import { backtrackingConstruct, withJavaScriptClasses } from '../kit/regex-syntax.js';

/** What ajv's `code.regExp` option takes: a pattern's compiler, and its name in generated code. @internal */
export interface PatternEngine {
  (pattern: string, flags: string): { test(value: string): boolean };
  readonly code: string;
}

/** At 2,000 RE2 instructions the worst pattern measured takes under a second on 100 KB. @internal */
export const MAX_PATTERN_PROGRAM = 2000;

/** Schema patterns on RE2 (linear time: nothing can interrupt a backtracking one); what RE2 cannot run is refused. @internal */
export const linearRegExp: PatternEngine = Object.assign(
  (pattern: string, flags: string) => {
    // JSON Schema patterns are JavaScript's: compiling one (never running it) refuses what JavaScript refuses.
    new RegExp(pattern, flags);
    const named = `pattern ${JSON.stringify(pattern)}`;
    const construct = backtrackingConstruct(pattern);
    if (construct !== null)
      throw new Error(
        `${named} holds ${construct}, which needs a backtracking engine: patterns run on RE2, in time linear in the value, without backreferences or lookarounds`,
      );
    let compiled: RE2JS;
    try {
      compiled = RE2JS.compile(withJavaScriptClasses(RE2JS.translateRegExp(pattern)));
    } catch (error) {
      throw new Error(`${named} is not supported by RE2: ${error instanceof Error ? error.message : String(error)}`);
    }
    const size = compiled.programSize();
    if (size > MAX_PATTERN_PROGRAM)
      throw new Error(
        `${named} compiles to ${size} RE2 instructions, more than ${MAX_PATTERN_PROGRAM} (bound lengths with maxLength instead of long counted repetitions)`,
      );
    return { test: (value: string) => compiled.test(value), toString: () => `/${pattern}/${flags}` };
  },
  { code: 'linearRegExp' },
);
