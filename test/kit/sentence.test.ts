import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sentence } from '../../src/kit/sentence.js';

describe('sentence', () => {
  it('adds a full stop only where the text ends no sentence of its own', () => {
    expect(sentence('the stage failed')).toBe('the stage failed.');
    expect(sentence('did you mean `rerun_stages`?')).toBe('did you mean `rerun_stages`?');
    expect(sentence('done.')).toBe('done.');
    expect(sentence('stop!')).toBe('stop!');
  });

  it('is idempotent and always ends a sentence', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const once = sentence(text);
        expect(sentence(once)).toBe(once);
        expect(once).toMatch(/[.?!]$/);
      }),
    );
  });
});
