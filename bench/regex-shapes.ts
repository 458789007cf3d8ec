// Patterns that take a backtracking engine exponential or polynomial time on a value that almost matches, each with
// that value and one it matches; RE2 takes them in time linear in the value.

/** One pattern, a value of thousands of steps on a backtracking engine that it does not match, and one it does. */
export interface SlowShape {
  readonly name: string;
  readonly pattern: string;
  readonly nearMiss: string;
  readonly match: string;
}

const SIXTY_FIVE = Array.from({ length: 65 }, (_, at) => `b${at}`);

/** Five shapes: 42 s, 24 s, more than 60 s, about 500 s and more than 60 s on Node 20's RegExp. */
export const SLOW_SHAPES: readonly SlowShape[] = [
  {
    name: 'three repetitions of one two-character run',
    pattern: '^(ab)*(ab)*(ab)*$',
    nearMiss: `${'ab'.repeat(3000)}a`,
    match: 'ab'.repeat(3000),
  },
  {
    name: 'a group of 67 alternatives, two overlapping',
    pattern: `^(?:${[...SIXTY_FIVE, 'a', 'aa'].join('|')})+$`,
    nearMiss: `${'a'.repeat(40)}!`,
    match: `${'a'.repeat(40)}b64`,
  },
  {
    name: 'alternatives over Unicode properties',
    pattern: '^(\\p{L}|\\p{Ll})+$',
    nearMiss: `${'a'.repeat(40)}!`,
    match: `${'é'.repeat(40)}A`,
  },
  {
    name: 'thirty single optional characters',
    pattern: `^${'a?'.repeat(30)}a*b$`,
    nearMiss: 'a'.repeat(30),
    match: `${'a'.repeat(30)}b`,
  },
  {
    name: 'an unanchored search over two long repetitions',
    pattern: '[a-z]*[a-z0-9]*!',
    nearMiss: 'a'.repeat(6000),
    match: `${'a'.repeat(6000)}!`,
  },
];
