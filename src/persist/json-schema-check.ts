import { Ajv, type ValidateFunction } from 'ajv';
import formatsPlugin from 'ajv-formats';

// ajv-formats is CommonJS: under Node's ESM loader its default import is the module object.
const addFormats = ((formatsPlugin as unknown as { default?: unknown }).default ?? formatsPlugin) as (ajv: Ajv) => Ajv;

/** The outcome of validating a document against a host-supplied JSON Schema. @internal */
export type SchemaCheck =
  | { readonly state: 'unavailable'; readonly detail: string }
  | { readonly state: 'checked'; readonly valid: boolean; readonly errors: readonly string[] };

/**
 * Validates documents against host-supplied JSON Schemas with ajv (all errors,
 * formats on). Compiled validators are cached by the schema's text.
 *
 * @internal
 */
export class JsonSchemaChecker {
  // Built on first use: most goals have no json_schema criterion, and building ajv is not free.
  private ajvInstance: Ajv | undefined;
  private readonly cache = new Map<string, ValidateFunction>();

  private get ajv(): Ajv {
    this.ajvInstance ??= addFormats(new Ajv({ allErrors: true, strict: false }));
    return this.ajvInstance;
  }

  /** Checks `document` against `schema`; a schema ajv cannot compile is `unavailable` with why. */
  check(document: unknown, schema: unknown): SchemaCheck {
    const validate = this.compile(schema);
    if (typeof validate === 'string') return { state: 'unavailable', detail: validate };
    const valid = validate(document);
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
    return { state: 'checked', valid, errors };
  }

  // Compiles (or reuses) a validator, or returns why the schema is unusable.
  private compile(schema: unknown): ValidateFunction | string {
    if (typeof schema !== 'boolean' && (typeof schema !== 'object' || schema === null || Array.isArray(schema))) {
      return 'the JSON Schema must be an object or a boolean';
    }
    const key = JSON.stringify(schema);
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    try {
      const validate = this.ajv.compile(schema as object);
      this.cache.set(key, validate);
      return validate;
    } catch (error) {
      return `the JSON Schema does not compile: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
}
