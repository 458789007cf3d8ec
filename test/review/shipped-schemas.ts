// The JSON Schemas the package ships (schemas/), compiled as a consumer would: ajv's draft 2020-12 dialect.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { ContractKey } from '../../src/review/core/contract-slots.js';

const ajv = new Ajv2020({ allErrors: true, strict: false });
const compiled = new Map<string, ValidateFunction>();

// The compiled validator of schemas/<path>, compiled once.
function validator(path: string): ValidateFunction {
  const known = compiled.get(path);
  if (known !== undefined) return known;
  const schema = JSON.parse(readFileSync(new URL(`../../schemas/${path}`, import.meta.url), 'utf8')) as object;
  const validate = ajv.compile(schema);
  compiled.set(path, validate);
  return validate;
}

/** Every error of `value` against the shipped schema schemas/<path> ([] when valid), one line each. */
export function schemaErrors(path: string, value: unknown): string[] {
  const validate = validator(path);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}

/** The path (under schemas/) of a stage contract's shipped schema. */
export function stageSchemaPath(key: ContractKey): string {
  return `stages/${key.replaceAll('_', '-')}.schema.json`;
}
