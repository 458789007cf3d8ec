import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8Offset, invalidUtf8Detail } from '../../src/kit/utf8.js';

const strict = new TextDecoder('utf-8', { fatal: true });
const decodes = (bytes: Uint8Array): boolean => {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
};
// The reference: the length of the longest prefix that decodes (an ill-formed sequence breaks every longer one).
function longestValidPrefix(bytes: Uint8Array): number {
  for (let length = bytes.length; length > 0; length -= 1) if (decodes(bytes.subarray(0, length))) return length;
  return 0;
}

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
// Valid text with stray bytes spliced in: most runs hold a bad sequence somewhere after some good characters.
const mixed = fc
  .array(fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }).map(encode), fc.uint8Array({ maxLength: 3 })), {
    maxLength: 8,
  })
  .map((parts) => Uint8Array.from(parts.flatMap((part) => Array.from(part))));

describe('firstInvalidUtf8Offset', () => {
  it('agrees with the fatal TextDecoder and isUtf8: null for UTF-8, else the longest valid prefix', () => {
    fc.assert(
      fc.property(fc.oneof(mixed, fc.uint8Array({ maxLength: 12 })), (bytes) => {
        const offset = firstInvalidUtf8Offset(bytes);
        expect(offset === null).toBe(decodes(bytes));
        expect(offset === null).toBe(isUtf8(bytes));
        if (offset !== null) expect(offset).toBe(longestValidPrefix(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['a stray continuation byte', [0x61, 0x80], 1],
    ['a byte UTF-8 never uses', [0x7b, 0xff, 0xfe, 0xc3], 1],
    ['an overlong form', [0xc0, 0xaf], 0],
    ['an overlong three-byte form', [0x61, 0xe0, 0x80, 0xaf], 1],
    ['a surrogate', [0xed, 0xa0, 0x80], 0],
    ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['a sequence cut short by the end', [0x61, 0x62, 0xe2, 0x82], 2],
    ['a sequence cut short by an ASCII byte', [0xc3, 0x28], 0],
  ])('locates %s', (_, bytes, offset) => {
    expect(firstInvalidUtf8Offset(Uint8Array.from(bytes))).toBe(offset);
  });

  it('accepts every well-formed boundary: the largest code points of each length, and a byte order mark', () => {
    expect(firstInvalidUtf8Offset(encode('\u007f\u07ff\uffff\u{10ffff}\ufeff'))).toBeNull();
    expect(firstInvalidUtf8Offset(Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]))).toBeNull();
  });
});

describe('invalidUtf8Detail', () => {
  it('names the byte offset and up to four bytes from there in hex', () => {
    const bytes = Uint8Array.from([...encode('{"goal_id":"'), 0xff, 0xfe, 0xc3, ...encode('"}')]);
    expect(invalidUtf8Detail(bytes)).toBe('byte offset 12 (ff fe c3 22)');
    expect(invalidUtf8Detail(Uint8Array.from([0x61, 0xe2]))).toBe('byte offset 1 (e2)');
    expect(invalidUtf8Detail(encode('fine'))).toBeNull();
  });
});
