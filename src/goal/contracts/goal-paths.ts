// The part of the containment rule a goal parser can apply alone: a relative criterion path whose `..` climbs out
// of the place it is relative to. An absolute path, or a run-relative path climbing out of the run dir, can only be
// judged against the project root and run dir, so the evaluation's containment check judges those.
import type { Issue } from '../../errors.js';
import { isAbsolutePath, normalizePath } from '../../kit/paths.js';

type Raw = Record<string, unknown>;

/**
 * The issues of criterion paths that escape with `..`, each at the path's JSON
 * path: a `file_exists` or `json_schema` `path` or `schema_path` resolved
 * against the project root (not `run_relative`), and a `metric_threshold`
 * `source.file`, which must stay inside the run dir. Reads the raw input
 * (wrong types are the schema's issues). Pure.
 *
 * @internal
 */
export function escapingPathIssues(input: unknown): Issue[] {
  const criteria = isRecord(input) ? input.criteria : undefined;
  if (!Array.isArray(criteria)) return [];
  const issues: Issue[] = [];
  criteria.forEach((criterion: unknown, index) => {
    if (!isRecord(criterion)) return;
    const check = (value: unknown, field: readonly string[], place: string) => {
      if (typeof value !== 'string' || isAbsolutePath(value)) return;
      const normalised = normalizePath(value);
      if (normalised !== '..' && !normalised.startsWith('../')) return;
      issues.push({
        code: 'path_escape',
        path: ['criteria', index, ...field],
        message: `"${value}" escapes ${place} with ".." (it normalises to "${normalised}"); a criterion's paths stay inside the project`,
      });
    };
    const { kind } = criterion;
    if ((kind === 'file_exists' || kind === 'json_schema') && criterion.run_relative !== true) {
      check(criterion.path, ['path'], 'the project root');
      check(criterion.schema_path, ['schema_path'], 'the project root');
    }
    if (kind === 'metric_threshold' && isRecord(criterion.source))
      check(criterion.source.file, ['source', 'file'], 'the run directory');
  });
  return issues;
}

function isRecord(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
