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
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';

export type PageEncoding = 'br' | 'gzip';

/** The encodings a share page is sent in, the most compact first (`Accept-Encoding` is negotiated against it). */
export const PAGE_ENCODINGS: readonly PageEncoding[] = ['br', 'gzip'];

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Brotli at quality 5 and gzip at level 6: a 5,000-entry Timesheet's page (1.4 MB) in about 11 ms
 * either way, to 87 KB and 124 KB. Brotli's higher qualities save a few percent more for four to
 * fifteen times the time.
 */
export function compressPage(page: Buffer, encoding: PageEncoding): Promise<Buffer> {
  if (encoding === 'gzip') return gzipped(page, { level: 6 });
  return brotli(page, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 5,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: page.length,
    },
  });
}

export interface PageCompressorOptions {
  /** Compressed copies kept, by total size. */
  maxBytes: number;
  /** Compressions running at once; a view past them is served as it is. */
  slots: number;
  /** Pages larger than this are always served as they are. */
  maxPageBytes: number;
  /** Replaced in tests. */
  compress?: (page: Buffer, encoding: PageEncoding) => Promise<Buffer>;
}

export interface PageCompressor {
  /**
   * The copy of the page `key` names in `encoding`: kept, or made now from `page()` (once, however
   * many views ask at the same time). Null when the page is to be sent as it is: too large, every
   * slot taken, or compressing failed. `size` is the page's size, known before `page()` reads it.
   */
  compressed(key: string, encoding: PageEncoding, size: number, page: () => Promise<Buffer>): Promise<Buffer | null>;
}

export function createPageCompressor(options: PageCompressorOptions): PageCompressor {
  const compress = options.compress ?? compressPage;
  const kept = new LRUCache<string, Buffer>({ maxSize: options.maxBytes, sizeCalculation: (copy) => Math.max(1, copy.length) });
  const pending = new Map<string, Promise<Buffer | null>>();
  let running = 0;

  async function make(page: () => Promise<Buffer>, encoding: PageEncoding): Promise<Buffer | null> {
    try {
      return await compress(await page(), encoding);
    } catch {
      // The page is sent as it is; the next view tries again.
      return null;
    } finally {
      running -= 1;
    }
  }

  return {
    async compressed(key, encoding, size, page) {
      if (size > options.maxPageBytes) return null;
      const id = `${encoding} ${key}`;
      const copy = kept.get(id);
      if (copy) return copy;
      const started = pending.get(id);
      if (started) return started;
      if (running >= options.slots) return null;
      running += 1;
      const made = make(page, encoding).then((result) => {
        pending.delete(id);
        // Larger than the page itself is never kept (a page of a few bytes).
        if (result && result.length < size) kept.set(id, result);
        return result && result.length < size ? result : null;
      });
      pending.set(id, made);
      return made;
    },
  };
}
