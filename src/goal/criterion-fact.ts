// The fact of one criterion of the goal, by kind: a path checked, a command run, a metric's document read, a JSON
// document checked against its schema (judges take theirs from the verdicts).
import { isInside } from '../kit/paths.js';
import type { RunPaths } from '../pipeline/run-paths.js';
import type { CommandRunner } from '../ports/command-runner.js';
import type { FileSystem } from '../ports/file-system.js';
import { type RealpathCache, resolveContainedPath } from '../runtime/containment.js';
import type { JsonSchemaChecker } from '../runtime/json-schema-check.js';
import type { Criterion } from './contracts/goal.js';
import type { CriterionFact, DocumentFact, PathFact } from './core/facts.js';
import { readJsonDocument } from './run-documents.js';

/** What gathering one criterion's fact reads from. @internal */
export interface CriterionSources {
  readonly fs: FileSystem;
  readonly paths: RunPaths;
  /** loop-state.json as metric source (`source: "loop_state"`). */
  readonly loopState: DocumentFact;
  readonly commands: CommandRunner | undefined;
  readonly skipCommands: boolean;
  readonly signal: AbortSignal | undefined;
  readonly checker: JsonSchemaChecker;
}

/** The fact of every judge criterion: the verdicts decide it. @internal */
export const JUDGE_FACT: CriterionFact = Object.freeze({ kind: 'judge' });

// What a relative path of a criterion is relative to.
function baseOf(input: CriterionSources, runRelative: boolean): string {
  return runRelative ? input.paths.runDir : '.';
}

/** Gathers the fact of one criterion, by kind, every path through the containment rule. @internal */
export async function gatherCriterion(
  input: CriterionSources,
  criterion: Criterion,
  feedback: Promise<{ document: DocumentFact }>,
  cache: RealpathCache,
): Promise<CriterionFact> {
  switch (criterion.kind) {
    case 'file_exists':
      return {
        kind: 'file_exists',
        path: await resolveContainedPath(input.fs, criterion.path, {
          base: baseOf(input, criterion.run_relative),
          cache,
        }),
      };
    case 'command': {
      if (input.skipCommands)
        return {
          kind: 'command',
          outcome: { state: 'skipped', detail: 'commands are skipped in this dry run (skipCommands)' },
        };
      if (input.commands === undefined)
        return {
          kind: 'command',
          outcome: {
            state: 'skipped',
            summary: 'no command runner was given: pass `commands`',
            detail:
              'no command runner was given (pass the `commands` option, e.g. createExecaCommandRunner() from goal-loop/node)',
          },
        };
      const result = await input.commands.run(criterion.command, {
        cwd: input.fs.root,
        timeoutMs: criterion.timeout_ms,
        ...(input.signal === undefined ? {} : { signal: input.signal }),
      });
      return { kind: 'command', outcome: { state: 'ran', result } };
    }
    case 'metric_threshold': {
      const source = criterion.source;
      if (source === 'feedback') return { kind: 'metric_threshold', source: (await feedback).document };
      if (source === 'loop_state') return { kind: 'metric_threshold', source: input.loopState };
      return {
        kind: 'metric_threshold',
        source: await readJsonDocument(
          input.fs,
          insideRunDir(
            await resolveContainedPath(input.fs, source.file, { base: input.paths.runDir, cache }),
            source.file,
            input.paths.runDir,
          ),
        ),
      };
    }
    case 'judge':
      return JUDGE_FACT;
    case 'json_schema':
      return jsonSchemaFact(input, criterion, cache);
  }
}

// A metric `{ file }` names a file of the run: one that resolves outside the run dir is refused.
function insideRunDir(fact: PathFact, written: string, runDir: string): PathFact {
  if (fact.state === 'refused' || isInside(fact.path, runDir)) return fact;
  return {
    state: 'refused',
    reason: 'run_dir',
    detail: `metric file "${written}" resolves to "${fact.path}", outside the run directory "${runDir}"`,
  };
}

// The fact of a json_schema criterion: its schema (inline or from schema_path) compiled first, then the document checked.
async function jsonSchemaFact(
  input: CriterionSources,
  criterion: Extract<Criterion, { kind: 'json_schema' }>,
  cache: RealpathCache,
): Promise<CriterionFact> {
  // The schema first: one that does not compile is an error of the goal whatever the document's state.
  let schema: unknown = criterion.schema;
  if (criterion.schema_path !== undefined) {
    const schemaDoc = await readJsonDocument(
      input.fs,
      await resolveContainedPath(input.fs, criterion.schema_path, {
        base: baseOf(input, criterion.run_relative),
        cache,
      }),
    );
    if (schemaDoc.state === 'malformed')
      return { kind: 'json_schema', outcome: { state: 'schema_error', detail: schemaDoc.detail } };
    if (schemaDoc.state !== 'present')
      return {
        kind: 'json_schema',
        outcome: unavailable(`schema_path: ${schemaDoc.detail}`, schemaDoc, 'schema_path'),
      };
    schema = schemaDoc.document;
  }
  const schemaError = input.checker.compileError(schema);
  if (schemaError !== undefined)
    return { kind: 'json_schema', outcome: { state: 'schema_error', detail: schemaError } };
  const target = await readJsonDocument(
    input.fs,
    await resolveContainedPath(input.fs, criterion.path, { base: baseOf(input, criterion.run_relative), cache }),
  );
  if (target.state !== 'present') return { kind: 'json_schema', outcome: unavailable(target.detail, target, 'path') };
  return { kind: 'json_schema', outcome: input.checker.check(target.document, schema) };
}

// A json_schema document that cannot be checked, naming the field whose path the containment rule refused.
function unavailable(detail: string, document: DocumentFact, field: 'path' | 'schema_path') {
  const refused = document.state === 'refused' && document.reason !== undefined;
  const file = field === 'schema_path' ? { file: field } : {};
  return refused
    ? { state: 'unavailable' as const, detail, refused: field, ...file }
    : { state: 'unavailable' as const, detail, ...file };
}
