/**
 * Serialises a JSON-like value canonically: object keys sorted, no
 * whitespace, `undefined` properties dropped (as `JSON.stringify` does),
 * `undefined` array items and non-finite numbers written as `null`, `-0` as
 * `0`. Two values that are deep-equal as JSON give the same string. Pure.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [true, null] }); // '{"a":[true,null],"b":1}'
 * ```
 * @public
 */
export function canonicalJson(value: unknown): string {
  return write(value) ?? 'null';
}

// Writes one value, or `undefined` when it has no JSON form (undefined, functions, symbols).
function write(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value === 0 ? 0 : value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return JSON.stringify(value.toString());
    case 'object':
      return Array.isArray(value) ? writeArray(value) : writeObject(value as Record<string, unknown>);
    default:
      return undefined;
  }
}

// Writes an array, with `null` for items that have no JSON form.
function writeArray(items: readonly unknown[]): string {
  return `[${items.map((item) => write(item) ?? 'null').join(',')}]`;
}

// Writes an object with its own enumerable keys sorted by code unit.
function writeObject(record: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const text = write(record[key]);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * The 64-bit FNV-1a hash of a string's UTF-8 bytes, as 16 lowercase hex
 * digits. Not cryptographic; stable across platforms and needs no Node
 * built-in. Pure.
 *
 * @example
 * ```ts
 * fnv1a64(''); // 'cbf29ce484222325'
 * ```
 * @public
 */
export function fnv1a64(text: string): string {
  // The state as four 16-bit limbs, least significant first (offset basis cbf29ce484222325).
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  for (const byte of utf8Bytes(text)) {
    h0 ^= byte;
    // Multiply by the prime 0x100000001b3 = 2^40 + 0x1b3, modulo 2^64.
    const t0 = h0 * 0x1b3;
    let t1 = h1 * 0x1b3;
    let t2 = h2 * 0x1b3 + (h0 << 8);
    const t3 = h3 * 0x1b3 + (h1 << 8);
    t1 += t0 >>> 16;
    h0 = t0 & 0xffff;
    t2 += t1 >>> 16;
    h1 = t1 & 0xffff;
    h3 = (t3 + (t2 >>> 16)) & 0xffff;
    h2 = t2 & 0xffff;
  }
  return [h3, h2, h1, h0].map((limb) => limb.toString(16).padStart(4, '0')).join('');
}

// Yields the UTF-8 encoding of a string (lone surrogates as U+FFFD, like TextEncoder).
function* utf8Bytes(text: string): Generator<number> {
  for (const char of text) {
    let code = char.codePointAt(0) ?? 0xfffd;
    if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
    if (code < 0x80) {
      yield code;
    } else if (code < 0x800) {
      yield 0xc0 | (code >> 6);
      yield 0x80 | (code & 0x3f);
    } else if (code < 0x10000) {
      yield 0xe0 | (code >> 12);
      yield 0x80 | ((code >> 6) & 0x3f);
      yield 0x80 | (code & 0x3f);
    } else {
      yield 0xf0 | (code >> 18);
      yield 0x80 | ((code >> 12) & 0x3f);
      yield 0x80 | ((code >> 6) & 0x3f);
      yield 0x80 | (code & 0x3f);
    }
  }
}

/**
 * Hashes a JSON-like value: `fnv1a64` of its {@link canonicalJson}.
 * Deep-equal values give the same hash. Pure.
 *
 * @public
 */
export function hashJson(value: unknown): string {
  return fnv1a64(canonicalJson(value));
}
