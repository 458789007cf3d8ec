import type { Issue } from '../../errors.js';
import { readOwn } from '../../kit/dot-path.js';
import type { Criterion } from '../contracts/goal.js';
import type { CriterionFact } from './facts.js';

/** What a json_schema criterion's outcome decides. @internal */
export interface JsonSchemaVerdict {
  readonly status: 'PASS' | 'FAIL' | 'PENDING';
  readonly summary: string;
  readonly detail: string;
  /** The field whose path the containment rule refused. */
  readonly refusedField?: 'path' | 'schema_path';
}

/** The issues of json_schema criteria whose schema does not compile. @internal */
export function schemaErrorIssues(
  criteria: readonly Criterion[],
  facts: Readonly<Record<string, CriterionFact>>,
): Issue[] {
  const issues: Issue[] = [];
  criteria.forEach((criterion, index) => {
    if (criterion.kind !== 'json_schema') return;
    const fact = readOwn(facts, criterion.id);
    if (fact?.kind !== 'json_schema' || fact.outcome.state !== 'schema_error') return;
    const field = criterion.schema_path === undefined ? 'schema' : 'schema_path';
    const where = criterion.schema_path === undefined ? 'its inline schema' : `schema_path "${criterion.schema_path}"`;
    issues.push({
      code: 'invalid_schema',
      path: ['criteria', index, field],
      message: `criterion ${criterion.id}: ${where} cannot be used: ${fact.outcome.detail}`,
    });
  });
  return issues;
}

/** json_schema: PASS when the document validates. @internal */
export function jsonSchemaVerdict(
  path: string,
  outcome: Extract<CriterionFact, { kind: 'json_schema' }>['outcome'],
  schemaPath?: string,
): JsonSchemaVerdict {
  if (outcome.state === 'schema_error')
    return {
      status: 'PENDING',
      summary: 'its JSON Schema does not compile',
      detail: `${path} was not validated: ${outcome.detail}.`,
    };
  if (outcome.state === 'unavailable')
    return {
      status: 'FAIL',
      summary: outcome.file === 'schema_path' ? `its schema ${schemaPath ?? ''} unavailable` : `${path} unavailable`,
      detail: `${path} could not be validated: ${outcome.detail}.`,
      ...(outcome.refused === undefined ? {} : { refusedField: outcome.refused }),
    };
  if (outcome.valid) return { status: 'PASS', summary: `${path} is valid`, detail: `${path} matches its JSON Schema.` };
  const first = outcome.errors.slice(0, 3).join('; ');
  const more = outcome.errors.length > 3 ? ` (and ${outcome.errors.length - 3} more)` : '';
  return {
    status: 'FAIL',
    summary: `${path} is invalid`,
    detail: `${path} does not match its JSON Schema: ${first === '' ? 'no error details' : first}${more}.`,
  };
}
