import { describe, expect, it } from 'vitest';
import { context, evaluate, fileExists, judge, ran } from './fixtures.js';

// A criterion evaluated without its fact, or with a fact of another kind, is PENDING rather than failed; a judge
// criterion takes the outcome of the verdict protocol, not a fact.

describe('missing or mismatched facts and judges', () => {
  it('is PENDING without a fact or with a fact of another kind', () => {
    expect(evaluate(fileExists('doc'), undefined)).toMatchObject({ status: 'PENDING', summary: 'not evaluated' });
    expect(evaluate(fileExists('doc'), ran())).toMatchObject({
      status: 'PENDING',
      detail: expect.stringContaining('command criterion'),
    });
  });

  it('takes a judge from the verdict protocol outcome', () => {
    expect(evaluate(judge('review', ['06-architecture']), undefined)).toMatchObject({
      status: 'PENDING',
      rerunStages: ['06-architecture'],
    });
    const decided = evaluate(judge('review'), undefined, {
      ...context,
      judge: {
        state: 'decided',
        verdict: 'FAIL',
        source: 'explicit',
        recommendation: 'block',
        rerunStages: ['07-code'],
        detail: 'd',
        summary: 's',
      },
    });
    expect(decided).toMatchObject({
      status: 'FAIL',
      verdictSource: 'explicit',
      recommendation: 'block',
      rerunStages: ['07-code'],
    });
  });
});
