import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { optionShapeOf } from '../../src/errors.js';

interface Options {
  readonly name: string;
  readonly stages?: readonly string[];
  readonly limit?: number;
}

describe('optionShapeOf: the options interface is the one source of the shape that checks them', () => {
  it('takes a shape whose entries accept every value the interface allows', () => {
    const shape = optionShapeOf<Options>()({
      name: z.string().min(1),
      stages: z.array(z.string()).optional(),
      limit: z.int().optional(),
    });
    expectTypeOf(shape.name).toEqualTypeOf<z.ZodString>();
  });

  it('refuses a missing key, an extra key, another type and a required entry for an optional option', () => {
    // @ts-expect-error limit has no entry
    optionShapeOf<Options>()({ name: z.string(), stages: z.array(z.string()).optional() });
    optionShapeOf<Options>()({
      name: z.string(),
      stages: z.array(z.string()).optional(),
      limit: z.int().optional(),
      // @ts-expect-error a key outside the interface
      extra: z.boolean(),
    });
    optionShapeOf<Options>()({
      name: z.string(),
      stages: z.array(z.string()).optional(),
      // @ts-expect-error limit is a number, not a string
      limit: z.string().optional(),
    });
    // @ts-expect-error limit is optional: its entry must accept undefined
    optionShapeOf<Options>()({ name: z.string(), stages: z.array(z.string()).optional(), limit: z.int() });
  });
});
