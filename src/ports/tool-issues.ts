// A tool's issues as zod reports them, in the tool issue shape.
import type { z } from 'zod';
import { unknownKeyIssuesAt } from '../kit/unknown-keys.js';
import type { ToolIssue } from './tool.js';

/** zod's issues in the tool issue shape (symbol keys as strings). Pure. @internal */
export function issuesOf(error: z.ZodError): ToolIssue[] {
  return error.issues.map((issue) => ({
    code: issue.code,
    path: issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key)),
    message: issue.message,
  }));
}

/** The issues of an input `schema` refused, in zod's order, with one issue per unknown key at its own path. @internal */
export function inputIssues(schema: z.ZodType, error: z.ZodError): ToolIssue[] {
  const converted = issuesOf(error);
  return error.issues.flatMap((issue, index) => {
    const own = converted[index];
    if (own === undefined) return [];
    return issue.code === 'unrecognized_keys'
      ? unknownKeyIssuesAt(issue.keys, own.path, objectKeysAt(schema, own.path))
      : [own];
  });
}

// The keys of the object schema at `path` inside `schema` (through optional, nullable, default and readonly wrappers, pipes and arrays).
function objectKeysAt(schema: z.ZodType, path: readonly (string | number)[]): readonly string[] {
  let at: z.core.$ZodType | undefined = schema;
  for (const key of path) {
    const def: z.core.$ZodTypeDef | undefined = unwrapped(at)?._zod.def;
    if (def?.type === 'object') at = (def as z.core.$ZodObjectDef).shape[key];
    else at = def?.type === 'array' && typeof key === 'number' ? (def as z.core.$ZodArrayDef).element : undefined;
  }
  const def = unwrapped(at)?._zod.def;
  return def?.type === 'object' ? Object.keys((def as z.core.$ZodObjectDef).shape) : [];
}

// A schema without its wrappers (optional, nullable, default, readonly, …; a pipe's input side).
function unwrapped(schema: z.core.$ZodType | undefined): z.core.$ZodType | undefined {
  let at = schema;
  for (;;) {
    const def = at?._zod.def as { innerType?: z.core.$ZodType; type?: string; in?: z.core.$ZodType } | undefined;
    if (def?.innerType !== undefined) at = def.innerType;
    else if (def?.type === 'pipe') at = def.in;
    else return at;
  }
}
