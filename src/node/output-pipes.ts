// The shell's output pipes: a rolling tail that keeps their last bytes, and the bounded wait for them to close.

/** The end of one output stream, as it arrives. @internal */
export interface OutputTail {
  /** Adds a chunk of the stream, dropping what falls out of the tail. */
  push(chunk: Uint8Array | string): void;
  /** The tail as UTF-8 text, never starting mid-character. */
  text(): string;
}

/** Keeps only the last `max` bytes of a stream. @internal */
export function createTail(max: number): OutputTail {
  let chunks: Buffer[] = [];
  let size = 0;
  return {
    push(chunk: Uint8Array | string): void {
      const bytes =
        typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      chunks.push(bytes);
      size += bytes.length;
      if (size > max * 2 + 4096) {
        const kept = Buffer.concat(chunks).subarray(size - max);
        chunks = [Buffer.from(kept)];
        size = kept.length;
      }
    },
    text(): string {
      const all = Buffer.concat(chunks);
      let start = Math.max(0, all.length - max);
      // Skip UTF-8 continuation bytes so the tail never starts mid-character.
      while (start < all.length && start > 0 && ((all[start] ?? 0) & 0xc0) === 0x80) start += 1;
      return all.subarray(start).toString('utf8');
    },
  };
}

/** Waited in 50 ms steps, so a pending end-of-file is read even after the event loop was blocked. @internal */
export async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const settled = promise.then(() => true);
  for (let waited = 0; waited < ms; waited += 50) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const step = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.min(50, ms - waited));
    });
    try {
      if (await Promise.race([settled, step])) return true;
    } finally {
      clearTimeout(timer);
    }
  }
  return false;
}
