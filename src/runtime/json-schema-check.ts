import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import { canonicalJson } from '../kit/hash.js';
import { linearRegExp } from './linear-regexp.js';

// ajv-formats is CommonJS: under Node's ESM loader its default import is the module object.
const addFormats = ((formatsPlugin as unknown as { default?: unknown }).default ?? formatsPlugin) as (ajv: Ajv) => Ajv;

/** The JSON Schema dialects a host-supplied schema may declare in `$schema`. @internal */
export type JsonSchemaDialect = 'draft-07' | '2019-09' | '2020-12';

// The meta-schema URI of each dialect, as ajv registers it.
const META_SCHEMA: Readonly<Record<JsonSchemaDialect, string>> = {
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
};

// A `$schema` value without its scheme and empty fragment, to its dialect.
const DIALECT_BY_URI: ReadonlyMap<string, JsonSchemaDialect> = new Map([
  ['json-schema.org/draft-07/schema', 'draft-07'],
  ['json-schema.org/draft/2019-09/schema', '2019-09'],
  ['json-schema.org/draft/2020-12/schema', '2020-12'],
]);

// The dialect without a `$schema`: the one this library's own shipped schemas use.
const DEFAULT_JSON_SCHEMA_DIALECT: JsonSchemaDialect = '2020-12';

// Compiled validators (and compile errors) kept per checker; the oldest go first beyond this.
const MAX_CACHED_SCHEMAS = 256;

// An ajv instance holds every schema it compiled, so a long-lived host gets a fresh instance every so often.
const COMPILES_PER_INSTANCE = 256;

/** The outcome of validating a document against a host-supplied JSON Schema. @internal */
export type SchemaCheck =
  | { readonly state: 'schema_error'; readonly detail: string }
  | { readonly state: 'checked'; readonly valid: boolean; readonly errors: readonly string[] };

/** The `$schema` dialect (draft-07, 2019-09, 2020-12; default 2020-12), or why it cannot be used. Pure. @internal */
export function jsonSchemaDialect(schema: unknown): { dialect: JsonSchemaDialect } | { error: string } {
  if (typeof schema !== 'object' || schema === null || !('$schema' in schema))
    return { dialect: DEFAULT_JSON_SCHEMA_DIALECT };
  const declared = (schema as { $schema: unknown }).$schema;
  if (typeof declared !== 'string') return { error: '"$schema" must be a string' };
  const dialect = DIALECT_BY_URI.get(declared.replace(/^https?:\/\//, '').replace(/#$/, ''));
  return dialect === undefined
    ? { error: `unsupported "$schema" "${declared}" (supported: draft-07, 2019-09, 2020-12)` }
    : { dialect };
}

/** ajv per dialect (so post-draft-07 keywords hold), one compile per canonical schema for stable results. @internal */
export class JsonSchemaChecker {
  // Built on first use per dialect: most goals have no json_schema criterion, and building ajv is not free.
  private readonly instances = new Map<JsonSchemaDialect, { readonly ajv: Ajv; compiles: number }>();
  private readonly cache = new Map<string, ValidateFunction | { readonly error: string }>();

  /** Checks `document` against `schema`; a schema that cannot be compiled is `schema_error` with why. */
  check(document: unknown, schema: unknown): SchemaCheck {
    const validate = this.compile(schema);
    if (typeof validate !== 'function') return { state: 'schema_error', detail: validate.error };
    let valid: boolean;
    try {
      valid = validate(document) === true;
    } catch (error) {
      return { state: 'checked', valid: false, errors: [`/ could not be validated: ${messageOf(error)}`] };
    }
    return { state: 'checked', valid, errors: (validate.errors ?? []).slice(0, 5).map(formatError) };
  }

  /** Why `schema` does not compile (in the dialect it declares), or `undefined` when it does. */
  compileError(schema: unknown): string | undefined {
    const validate = this.compile(schema);
    return typeof validate === 'function' ? undefined : validate.error;
  }

  // Compiles (or reuses) a validator, or says why the schema is unusable; both are kept by content.
  private compile(schema: unknown): ValidateFunction | { readonly error: string } {
    if (typeof schema !== 'boolean' && (typeof schema !== 'object' || schema === null || Array.isArray(schema)))
      return { error: 'the JSON Schema must be an object or a boolean' };
    let key: string;
    try {
      key = canonicalJson(schema);
    } catch (error) {
      return { error: `the JSON Schema cannot be read: ${messageOf(error)}` };
    }
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const compiled = this.compileNew(schema);
    if (this.cache.size >= MAX_CACHED_SCHEMAS) {
      const oldest = this.cache.keys().next();
      if (oldest.done !== true) this.cache.delete(oldest.value);
    }
    this.cache.set(key, compiled);
    return compiled;
  }

  // Compiles with the ajv of the schema's dialect, its `$schema` written as ajv knows that meta-schema.
  private compileNew(schema: object | boolean): ValidateFunction | { readonly error: string } {
    const found = jsonSchemaDialect(schema);
    if ('error' in found) return { error: `the JSON Schema does not compile: ${found.error}` };
    const { dialect } = found;
    const source =
      typeof schema === 'object' && '$schema' in schema ? { ...schema, $schema: META_SCHEMA[dialect] } : schema;
    const ajv = this.ajv(dialect);
    try {
      return ajv.compile(source);
    } catch (error) {
      return { error: `the JSON Schema (${dialect}) does not compile: ${messageOf(error)}` };
    } finally {
      // ajv's own cache is never freed; this checker's is bounded.
      if (typeof source === 'object') ajv.removeSchema(source);
    }
  }

  // The ajv of a dialect for one more compile: built on first use, and afresh after COMPILES_PER_INSTANCE compiles.
  private ajv(dialect: JsonSchemaDialect): Ajv {
    let instance = this.instances.get(dialect);
    if (instance === undefined || instance.compiles >= COMPILES_PER_INSTANCE) {
      // addUsedSchema off: a schema's $id is not registered, so recompiling one (or another with the same $id) never clashes.
      const options: Options = {
        allErrors: true,
        strict: false,
        addUsedSchema: false,
        code: { regExp: linearRegExp },
      };
      const ajv = addFormats(
        dialect === '2020-12' ? new Ajv2020(options) : dialect === '2019-09' ? new Ajv2019(options) : new Ajv(options),
      );
      instance = { ajv, compiles: 0 };
      this.instances.set(dialect, instance);
    }
    instance.compiles += 1;
    return instance.ajv;
  }
}

// `/path message`, naming the property for additional and unevaluated properties.
function formatError(error: ErrorObject): string {
  const params = error.params as { additionalProperty?: unknown; unevaluatedProperty?: unknown };
  const property = params.additionalProperty ?? params.unevaluatedProperty;
  const named = typeof property === 'string' ? ` ("${property}")` : '';
  return `${error.instancePath || '/'} ${error.message ?? 'is invalid'}${named}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
