// The review's scaling in the length of one id list: a single code file, test case or story naming N ids (a list
// no contract limits). Each doubling of N must cost about twice the time, never four times.
import { type ReviewContracts, reviewPipeline } from '../src/review.js';
import { medianMs, ms, ratio, row } from './format.js';

const LENGTHS = [20_000, 40_000, 80_000] as const;
const META = { contract_version: '1.1', produced_by: 'bench', timestamp: '2025-01-31T10:00:00Z' };
type Field = 'implements' | 'requirement_ids' | 'linked_requirements';

// The contracts of a small run where one owner names `length` requirement ids in `field` (half of them defined).
function contracts(field: Field, length: number): ReviewContracts {
  const ids = Array.from({ length }, (_, index) => `FR-${index + 1}`);
  const requirements = ids.slice(0, length / 2).map((id) => ({ id, type: 'functional', title: id }));
  const story = { story_id: 'US-1', title: 'One', linked_requirements: field === 'linked_requirements' ? ids : [] };
  const test = {
    id: 'TC-1',
    story_ids: ['US-1'],
    requirement_ids: field === 'requirement_ids' ? ids : [],
    status: 'passed',
  };
  const file = { path: 'src/one.ts', implements: field === 'implements' ? ids : ['US-1'] };
  const documents = {
    requirement_spec: { ...META, requirements },
    jira_tickets: { ...META, epics: [{ epic_id: 'EPIC-1', user_stories: [story] }] },
    code_report: { ...META, files: [file] },
    test_report: { ...META, test_cases: [test] },
  };
  return Object.fromEntries(
    Object.entries(documents).map(([key, document]) => [key, { state: 'present', path: '', document }]),
  ) as ReviewContracts;
}

/** Prints, for each field, the pure review's time at each list length and the ratio per doubling. */
export async function benchLongLists(): Promise<void> {
  console.log('\n  One owner naming N requirement ids (reviewPipeline alone; linear: ≈ 2× per doubling)');
  for (const field of ['implements', 'requirement_ids', 'linked_requirements'] as const) {
    const times: number[] = [];
    for (const length of LENGTHS) {
      const input = contracts(field, length);
      times.push(
        await medianMs(`${field} ${length}`, () => reviewPipeline(input, { timestamp: '2025-01-31T12:00:00.000Z' }), {
          iterations: 3,
          warmupIterations: 1,
          time: 0,
          warmupTime: 0,
        }),
      );
    }
    const doublings = times.slice(1).map((time, index) => ratio(time / (times[index] ?? time)));
    row(
      `${field}: ${LENGTHS.map((length) => `${length / 1000}k`).join(' / ')}`,
      ms(times.at(-1) ?? 0),
      `per doubling ${doublings.join(', ')}`,
    );
  }
}
