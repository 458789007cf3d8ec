// The UTF-8 well-formedness rules (RFC 3629, the table of the Unicode Standard §3.9): for each lead byte, the range
// its second byte must fall in (which rules out overlong forms, surrogates and code points past U+10FFFF) and how
// many bytes the sequence has. Every later byte is a plain continuation byte (0x80–0xBF).
function sequenceOf(lead: number): { readonly length: number; readonly low: number; readonly high: number } | null {
  if (lead >= 0xc2 && lead <= 0xdf) return { length: 2, low: 0x80, high: 0xbf };
  if (lead === 0xe0) return { length: 3, low: 0xa0, high: 0xbf };
  if (lead === 0xed) return { length: 3, low: 0x80, high: 0x9f };
  if (lead >= 0xe1 && lead <= 0xef) return { length: 3, low: 0x80, high: 0xbf };
  if (lead === 0xf0) return { length: 4, low: 0x90, high: 0xbf };
  if (lead >= 0xf1 && lead <= 0xf3) return { length: 4, low: 0x80, high: 0xbf };
  if (lead === 0xf4) return { length: 4, low: 0x80, high: 0x8f };
  return null;
}

// Whether the sequence led by bytes[at] is complete and well formed.
function wellFormedAt(bytes: Uint8Array, at: number, sequence: { length: number; low: number; high: number }): boolean {
  if (at + sequence.length > bytes.length) return false;
  const second = bytes[at + 1] as number;
  if (second < sequence.low || second > sequence.high) return false;
  for (let next = at + 2; next < at + sequence.length; next += 1) {
    const byte = bytes[next] as number;
    if (byte < 0x80 || byte > 0xbf) return false;
  }
  return true;
}

/**
 * The byte offset where the first ill-formed UTF-8 sequence of `bytes` starts (a stray continuation byte, a byte that
 * never occurs in UTF-8, an overlong form, a surrogate, a code point past U+10FFFF, or a sequence cut short by a wrong
 * byte or by the end), or `null` when all of `bytes` is well-formed UTF-8. @internal
 */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number | null {
  let at = 0;
  while (at < bytes.length) {
    const lead = bytes[at] as number;
    if (lead < 0x80) {
      at += 1;
      continue;
    }
    const sequence = sequenceOf(lead);
    if (sequence === null || !wellFormedAt(bytes, at, sequence)) return at;
    at += sequence.length;
  }
  return null;
}

/**
 * A sentence locating the first ill-formed UTF-8 sequence of `bytes` for an error message: its byte offset and up to
 * four bytes from there in hex (`byte offset 31 (ff fe c3 22)`), or `null` when `bytes` is well-formed. @internal
 */
export function invalidUtf8Detail(bytes: Uint8Array): string | null {
  const offset = firstInvalidUtf8Offset(bytes);
  if (offset === null) return null;
  const shown = Array.from(bytes.subarray(offset, offset + 4), (byte) => byte.toString(16).padStart(2, '0'));
  return `byte offset ${offset} (${shown.join(' ')})`;
}
