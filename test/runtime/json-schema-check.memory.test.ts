import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { JsonSchemaChecker } from '../../src/runtime/json-schema-check.js';

// A long-lived host (a server evaluating many goals) compiles an open-ended stream of schemas: the checker's memory
// must stay bounded by its own cache, whatever ajv keeps for itself.

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('JsonSchemaChecker memory', () => {
  it('holds no schema past its own bounded cache: schemas compiled long ago, valid or not, can be collected', async () => {
    const checker = new JsonSchemaChecker();
    const early: WeakRef<object>[] = [];
    for (let index = 0; index < 600; index++) {
      // Every other schema does not compile (a minimum that is not a number).
      const schema = { type: 'object', properties: { [`p${index}`]: { minimum: index % 2 === 0 ? index : 'x' } } };
      if (index < 100) early.push(new WeakRef(schema));
      checker.check({}, schema);
    }
    for (let round = 0; round < 3; round++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      gc();
    }
    expect(early.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
  });
});
