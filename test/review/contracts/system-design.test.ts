// Endpoint normalization: "METHOD /path" with an upper-case method, one space and no trailing slash; an endpoint
// already normal is returned as it is, with the same result the full normalization gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endpointKeyFromString } from '../../../src/review/contracts/system-design.js';

// The full normalization, written out: split method and path at the first whitespace run, upper-case the method,
// trim the path and drop its trailing slashes ("/" when nothing is left); no split: the trimmed string.
function normalizedEndpoint(value: string): string {
  const match = /^\s*(\S+)\s+(.*)$/.exec(value);
  if (match?.[1] === undefined || match[2] === undefined) return value.trim();
  const path = match[2].trim().replace(/\/+$/, '');
  return `${match[1].trim().toUpperCase()} ${path === '' ? '/' : path}`;
}

// Strings built from the characters endpoint normalization cares about.
const endpointText = fc
  .array(fc.constantFrom('G', 'E', 'T', 'p', 'o', 's', 't', 'é', '/', ' ', '  ', '\t', '\n', '\u00a0', 'a', '1', '-'), {
    maxLength: 14,
  })
  .map((parts) => parts.join(''));

describe('endpointKeyFromString', () => {
  it.each([
    ['get /users/', 'GET /users'],
    ['  post   /a/b//  ', 'POST /a/b'],
    ['GET /', 'GET /'],
    ['GET //', 'GET /'],
    ['GET /a b', 'GET /a b'],
    ['Get /x', 'GET /x'],
    ['GET  /x', 'GET /x'],
    ['GET /x ', 'GET /x'],
    ['GET\t/x', 'GET /x'],
    ['/health', '/health'],
    ['lonely', 'lonely'],
    [' lonely ', 'LONELY /'],
  ])('normalizes %j to %j', (input, expected) => {
    expect(endpointKeyFromString(input)).toBe(expected);
  });

  it('gives what the full normalization gives, for any string of endpoint characters', () => {
    fc.assert(
      fc.property(endpointText, (value) => {
        expect(endpointKeyFromString(value)).toBe(normalizedEndpoint(value));
      }),
      { numRuns: 20_000 },
    );
  });
});
