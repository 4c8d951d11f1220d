/**
 * Compressed copies of bodies that are the same bytes for every request that names them: a share
 * link's page or a version's CSV (docs/decisions.md "Share pages are compressed once per link"),
 * a file of the API reference ("The API reference's files are compressed once"). The first request
 * that asks compresses the body; the next ones get the copy as it is.
 *
 * Compressing runs in libuv's thread pool (zlib's asynchronous calls), never on the event loop, and
 * at most `slots` at once per process: a request that finds every slot taken is answered with the
 * body as it is rather than waiting, so a client that asks for many large bodies at once makes
 * their first answers larger, never slower for anyone. Nothing here decides whether a body may be
 * served; callers ask only once it may. Copies live in this process only (bounded, least recently
 * used first out): another process compresses its own.
 */
import { LRUCache } from 'lru-cache';
import { compressBody, type ContentEncoding } from './compression.js';

export interface CompressedCopiesOptions {
  /** Compressed copies kept, by total size. */
  maxBytes: number;
  /** Compressions running at once; a request past them is served the body as it is. */
  slots: number;
  /** Bodies larger than this are always served as they are. */
  maxSourceBytes: number;
  /** Replaced in tests. */
  compress?: (body: Buffer, encoding: ContentEncoding) => Promise<Buffer>;
}

export interface CompressedCopies {
  /**
   * The copy of the body `key` names in `encoding`: kept, or made now from `body()` (once, however
   * many requests ask at the same time). Null when the body is to be sent as it is: too large,
   * every slot taken, compressing failed, or the copy would be no smaller. `size` is the body's
   * size, known before `body()` reads it.
   */
  compressed(key: string, encoding: ContentEncoding, size: number, body: () => Promise<Buffer>): Promise<Buffer | null>;
  /**
   * A body made for one answer (an unlocked share page, with its own grant) compressed for it
   * alone, under the same slots and bound, and not kept. Null as for `compressed`.
   */
  once(encoding: ContentEncoding, size: number, body: () => Promise<Buffer>): Promise<Buffer | null>;
}

export function createCompressedCopies(options: CompressedCopiesOptions): CompressedCopies {
  const compress = options.compress ?? compressBody;
  const kept = new LRUCache<string, Buffer>({ maxSize: options.maxBytes, sizeCalculation: (copy) => Math.max(1, copy.length) });
  const pending = new Map<string, Promise<Buffer | null>>();
  let running = 0;

  async function make(body: () => Promise<Buffer>, encoding: ContentEncoding): Promise<Buffer | null> {
    try {
      return await compress(await body(), encoding);
    } catch {
      // The body is sent as it is; the next request tries again.
      return null;
    } finally {
      running -= 1;
    }
  }

  /** The body compressed, if it is within the bound and a slot is free; null otherwise, or when no smaller. */
  function startIfFree(encoding: ContentEncoding, size: number, body: () => Promise<Buffer>): Promise<Buffer | null> | null {
    if (size > options.maxSourceBytes || running >= options.slots) return null;
    running += 1;
    // Larger than the body itself is never sent (a body of a few bytes).
    return make(body, encoding).then((result) => (result && result.length < size ? result : null));
  }

  return {
    async once(encoding, size, body) {
      return startIfFree(encoding, size, body);
    },

    async compressed(key, encoding, size, body) {
      const id = `${encoding} ${key}`;
      const copy = kept.get(id);
      if (copy) return copy;
      const started = pending.get(id);
      if (started) return started;
      const making = startIfFree(encoding, size, body);
      if (!making) return null;
      const made = making.then((result) => {
        pending.delete(id);
        if (result) kept.set(id, result);
        return result;
      });
      pending.set(id, made);
      return made;
    },
  };
}
