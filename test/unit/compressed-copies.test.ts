/**
 * Compressed copies (src/lib/compressed-copies.ts), as share pages use them: one compression per
 * page however many views ask at once, none past the slots or the size bound, a failure never kept.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressBody, type ContentEncoding } from '../../src/lib/compression.js';
import { createCompressedCopies } from '../../src/lib/compressed-copies.js';

const PAGE = Buffer.from(
  `<!doctype html><title>Timesheet</title>${'<tr><td>2026-11-02</td><td>Design review</td><td>1h 30m</td></tr>\n'.repeat(500)}`,
);

/** A compress function whose calls wait until released, counted. */
function heldCompress() {
  const calls: { encoding: ContentEncoding; release: () => void; fail: (error: Error) => void }[] = [];
  const compress = (page: Buffer, encoding: ContentEncoding) =>
    new Promise<Buffer>((resolve, reject) => {
      calls.push({
        encoding,
        release: () => {
          resolve(Buffer.from(`${encoding}:${page.length}`));
        },
        fail: reject,
      });
    });
  return { calls, compress };
}

/** Resolves once `condition` holds, checking after each turn of the event loop. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('compressBody', () => {
  it('compresses a page with Brotli and with gzip, each decoding to the page', async () => {
    const br = await compressBody(PAGE, 'br');
    const gz = await compressBody(PAGE, 'gzip');
    expect(brotliDecompressSync(br).equals(PAGE)).toBe(true);
    expect(gunzipSync(gz).equals(PAGE)).toBe(true);
    expect(br.length).toBeLessThan(PAGE.length / 10);
    expect(gz.length).toBeLessThan(PAGE.length / 10);
  });
});

describe('createCompressedCopies', () => {
  const options = { maxBytes: 1024 * 1024, slots: 1, maxSourceBytes: 1024 * 1024 };

  it('compresses a page once for every view that asks at the same time, and keeps the copy', async () => {
    const held = heldCompress();
    const compressor = createCompressedCopies({ ...options, compress: held.compress });
    let reads = 0;
    const page = () => {
      reads += 1;
      return Promise.resolve(PAGE);
    };
    const views = Array.from({ length: 5 }, () => compressor.compressed('c1 link', 'br', PAGE.length, page));
    await until(() => held.calls.length === 1);
    held.calls[0]!.release();
    const copies = await Promise.all(views);
    expect(copies.map((copy) => copy?.toString())).toEqual(copies.map(() => `br:${PAGE.length}`));
    expect(await compressor.compressed('c1 link', 'br', PAGE.length, page)).toBe(copies[0]);
    expect(held.calls).toHaveLength(1);
    expect(reads).toBe(1);
  });

  it('keeps one copy per encoding', async () => {
    const compressor = createCompressedCopies(options);
    const br = await compressor.compressed('c1 link', 'br', PAGE.length, () => Promise.resolve(PAGE));
    const gz = await compressor.compressed('c1 link', 'gzip', PAGE.length, () => Promise.resolve(PAGE));
    expect(brotliDecompressSync(br!).equals(PAGE)).toBe(true);
    expect(gunzipSync(gz!).equals(PAGE)).toBe(true);
  });

  it('answers null at once, without reading the page, while every slot is taken', async () => {
    const held = heldCompress();
    const compressor = createCompressedCopies({ ...options, compress: held.compress });
    const first = compressor.compressed('c1 a', 'br', PAGE.length, () => Promise.resolve(PAGE));
    await until(() => held.calls.length === 1);
    let read = false;
    const other = await compressor.compressed('c2 b', 'br', PAGE.length, () => {
      read = true;
      return Promise.resolve(PAGE);
    });
    expect(other).toBeNull();
    expect(read).toBe(false);
    held.calls[0]!.release();
    expect(await first).not.toBeNull();
    // The slot is free again: the other page is compressed now.
    const later = compressor.compressed('c2 b', 'br', PAGE.length, () => Promise.resolve(PAGE));
    await until(() => held.calls.length === 2);
    held.calls[1]!.release();
    expect((await later)?.toString()).toBe(`br:${PAGE.length}`);
  });

  it('never compresses a page larger than its bound', async () => {
    const held = heldCompress();
    const compressor = createCompressedCopies({ ...options, maxSourceBytes: PAGE.length - 1, compress: held.compress });
    expect(await compressor.compressed('c1 link', 'br', PAGE.length, () => Promise.resolve(PAGE))).toBeNull();
    expect(held.calls).toHaveLength(0);
  });

  it('answers null when compressing or reading fails, keeps nothing and frees the slot', async () => {
    const held = heldCompress();
    const compressor = createCompressedCopies({ ...options, compress: held.compress });
    const failing = compressor.compressed('c1 link', 'br', PAGE.length, () => Promise.resolve(PAGE));
    await until(() => held.calls.length === 1);
    held.calls[0]!.fail(new Error('out of memory'));
    expect(await failing).toBeNull();
    expect(await compressor.compressed('c2 other', 'br', PAGE.length, () => Promise.reject(new Error('gone')))).toBeNull();
    const retried = compressor.compressed('c1 link', 'br', PAGE.length, () => Promise.resolve(PAGE));
    await until(() => held.calls.length === 2);
    held.calls[1]!.release();
    expect((await retried)?.toString()).toBe(`br:${PAGE.length}`);
  });

  it('keeps no copy that is not smaller than the page', async () => {
    const tiny = Buffer.from('<p>');
    const compressor = createCompressedCopies(options);
    expect(await compressor.compressed('c1 link', 'br', tiny.length, () => Promise.resolve(tiny))).toBeNull();
  });

  it('compresses a page for one answer without keeping it, under the same slots', async () => {
    const held = heldCompress();
    const compressor = createCompressedCopies({ ...options, compress: held.compress });
    const first = compressor.once('br', PAGE.length, () => Promise.resolve(PAGE));
    await until(() => held.calls.length === 1);
    // The slot is taken: neither another answer nor a kept copy is started.
    expect(await compressor.once('br', PAGE.length, () => Promise.resolve(PAGE))).toBeNull();
    expect(await compressor.compressed('c1 link', 'br', PAGE.length, () => Promise.resolve(PAGE))).toBeNull();
    held.calls[0]!.release();
    expect((await first)?.toString()).toBe(`br:${PAGE.length}`);
    const again = compressor.once('br', PAGE.length, () => Promise.resolve(PAGE));
    await until(() => held.calls.length === 2);
    held.calls[1]!.release();
    expect((await again)?.toString()).toBe(`br:${PAGE.length}`);
  });

  it('keeps copies up to its size, the least recently used leaving first', async () => {
    let calls = 0;
    const compress = (page: Buffer) => {
      calls += 1;
      return Promise.resolve(Buffer.alloc(400, page[0]));
    };
    const compressor = createCompressedCopies({ ...options, maxBytes: 1000, compress });
    const pageOf = (letter: string) => () => Promise.resolve(Buffer.alloc(2000, letter));
    await compressor.compressed('a', 'br', 2000, pageOf('a'));
    await compressor.compressed('b', 'br', 2000, pageOf('b'));
    await compressor.compressed('a', 'br', 2000, pageOf('a'));
    expect(calls).toBe(2);
    // A third copy does not fit beside two: the least recently used (b) leaves.
    await compressor.compressed('c', 'br', 2000, pageOf('c'));
    await compressor.compressed('a', 'br', 2000, pageOf('a'));
    expect(calls).toBe(3);
    await compressor.compressed('b', 'br', 2000, pageOf('b'));
    expect(calls).toBe(4);
  });
});
