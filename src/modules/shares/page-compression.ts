/**
 * Share pages as a browser asks for them: Brotli or gzip, compressed once per link and kept
 * (docs/decisions.md "Share pages are compressed once per link"). A page is the same bytes for
 * every view of one link (its version's page with that link's download addresses), so its
 * compressed copy is made on the first view that asks and served to the next ones as it is.
 *
 * Compressing runs in libuv's thread pool (zlib's asynchronous calls), never on the event loop, and
 * at most `slots` at once per process: a view that finds every slot taken is answered with the page
 * as it is rather than waiting, so a client that opens many large links at once makes their first
 * views larger, never slower for anyone. Nothing here decides whether a link serves; the viewer
 * asks only after the view has been counted. Copies live in this process only (bounded, least
 * recently used first out): another process compresses its own.
 */
import { LRUCache } from 'lru-cache';
import { compressBody, type ContentEncoding } from '../../lib/compression.js';

export interface PageCompressorOptions {
  /** Compressed copies kept, by total size. */
  maxBytes: number;
  /** Compressions running at once; a view past them is served as it is. */
  slots: number;
  /** Pages larger than this are always served as they are. */
  maxPageBytes: number;
  /** Replaced in tests. */
  compress?: (page: Buffer, encoding: ContentEncoding) => Promise<Buffer>;
}

export interface PageCompressor {
  /**
   * The copy of the page `key` names in `encoding`: kept, or made now from `page()` (once, however
   * many views ask at the same time). Null when the page is to be sent as it is: too large, every
   * slot taken, or compressing failed. `size` is the page's size, known before `page()` reads it.
   */
  compressed(key: string, encoding: ContentEncoding, size: number, page: () => Promise<Buffer>): Promise<Buffer | null>;
  /**
   * A page made for one answer (an unlocked page, with its own grant) compressed for it alone,
   * under the same slots and bound, and not kept. Null as for `compressed`.
   */
  once(encoding: ContentEncoding, size: number, page: () => Promise<Buffer>): Promise<Buffer | null>;
}

export function createPageCompressor(options: PageCompressorOptions): PageCompressor {
  const compress = options.compress ?? compressBody;
  const kept = new LRUCache<string, Buffer>({ maxSize: options.maxBytes, sizeCalculation: (copy) => Math.max(1, copy.length) });
  const pending = new Map<string, Promise<Buffer | null>>();
  let running = 0;

  async function make(page: () => Promise<Buffer>, encoding: ContentEncoding): Promise<Buffer | null> {
    try {
      return await compress(await page(), encoding);
    } catch {
      // The page is sent as it is; the next view tries again.
      return null;
    } finally {
      running -= 1;
    }
  }

  /** The page compressed, if it is within the bound and a slot is free; null otherwise, or when no smaller. */
  function startIfFree(encoding: ContentEncoding, size: number, page: () => Promise<Buffer>): Promise<Buffer | null> | null {
    if (size > options.maxPageBytes || running >= options.slots) return null;
    running += 1;
    // Larger than the page itself is never sent (a page of a few bytes).
    return make(page, encoding).then((result) => (result && result.length < size ? result : null));
  }

  return {
    async once(encoding, size, page) {
      return startIfFree(encoding, size, page);
    },

    async compressed(key, encoding, size, page) {
      const id = `${encoding} ${key}`;
      const copy = kept.get(id);
      if (copy) return copy;
      const started = pending.get(id);
      if (started) return started;
      const making = startIfFree(encoding, size, page);
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
