/**
 * Serialises a JSON-like value canonically: object keys sorted, no whitespace, `undefined` properties dropped (as
 * `JSON.stringify` does), `undefined` array items and non-finite numbers written as `null`, `-0` as `0`. @public
 */
export function canonicalJson(value: unknown): string {
  return write(value, 0) ?? 'null';
}

// Below this depth values are written recursively (the fast path); deeper ones by the iterative writer.
const RECURSION_LIMIT = 256;

// Writes one value, or `undefined` when it has no JSON form (undefined, functions, symbols).
function write(value: unknown, depth: number): string | undefined {
  if (typeof value !== 'object' || value === null) return value === null ? 'null' : scalar(value);
  if (depth >= RECURSION_LIMIT) return writeIteratively(value);
  if (Array.isArray(value)) return `[${value.map((item) => write(item, depth + 1) ?? 'null').join(',')}]`;
  const parts: string[] = [];
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record).sort()) {
    const text = write(record[key], depth + 1);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

// Writes a value with an explicit stack instead of the call stack, so any depth fits.
function writeIteratively(value: unknown): string {
  const stack: Frame[] = [];
  const open = new Set<object>();
  let text = '';
  let next: unknown = value;
  let hasNext = true;
  for (;;) {
    if (hasNext) {
      if (typeof next === 'object' && next !== null) {
        if (open.has(next)) throw new TypeError('canonicalJson: the value is circular');
        open.add(next);
        const array = Array.isArray(next);
        text += array ? '[' : '{';
        stack.push({ container: next, array, keys: array ? null : Object.keys(next).sort(), index: 0, written: 0 });
      } else text += scalar(next) ?? 'null';
    }
    const frame = stack[stack.length - 1];
    if (frame === undefined) return text;
    hasNext = false;
    if (frame.keys === null) {
      const items = frame.container as readonly unknown[];
      if (frame.index < items.length) {
        if (frame.index > 0) text += ',';
        next = items[frame.index];
        frame.index += 1;
        hasNext = true;
        continue;
      }
    } else {
      const record = frame.container as Record<string, unknown>;
      while (frame.index < frame.keys.length) {
        const key = frame.keys[frame.index] as string;
        frame.index += 1;
        const item = record[key];
        const type = typeof item;
        if (type === 'undefined' || type === 'function' || type === 'symbol') continue;
        text += `${frame.written > 0 ? ',' : ''}${JSON.stringify(key)}:`;
        frame.written += 1;
        next = item;
        hasNext = true;
        break;
      }
      if (hasNext) continue;
    }
    text += frame.keys === null ? ']' : '}';
    open.delete(frame.container);
    stack.pop();
  }
}

// An array or object being written: its sorted keys (null for an array) and how far the writer is.
interface Frame {
  readonly container: object;
  readonly keys: readonly string[] | null;
  readonly array: boolean;
  index: number;
  written: number;
}

// The JSON text of a non-object value, or `undefined` when it has none.
function scalar(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value === 0 ? 0 : value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return JSON.stringify(value.toString());
    default:
      return undefined; // undefined, functions, symbols
  }
}

/** The 64-bit FNV-1a hash of a string's UTF-8 bytes, as 16 lowercase hex digits. @public */
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

/** Hashes a JSON-like value: `fnv1a64` of its {@link canonicalJson}. @public */
export function hashJson(value: unknown): string {
  return fnv1a64(canonicalJson(value));
}
