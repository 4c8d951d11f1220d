/** Share pages kept as files of this process (page-file-cache.ts). */
import { existsSync } from 'node:fs';
import { readlink, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPageFileCache, type PageFileCache } from '../../src/modules/shares/page-file-cache.js';

async function read(cache: PageFileCache, key: string): Promise<string | null> {
  const page = await cache.open(key);
  if (!page) return null;
  try {
    return (await page.handle.readFile()).toString();
  } finally {
    await page.handle.close();
  }
}

/** Where an open page's file is (Linux: the descriptor's link). */
async function pathOf(cache: PageFileCache, key: string): Promise<string> {
  const page = await cache.open(key);
  if (!page) throw new Error('not stored');
  try {
    return await readlink(`/proc/self/fd/${page.handle.fd}`);
  } finally {
    await page.handle.close();
  }
}

describe('createPageFileCache', () => {
  it('stores pages as private files, evicts the least recently used past its size, and removes its directory on close', async () => {
    const cache = createPageFileCache(10);
    expect(await cache.open('a')).toBeNull();
    expect(await cache.put('a', Buffer.from('aaaa'))).toBe(true);
    expect(await cache.put('b', Buffer.from('bbbb'))).toBe(true);
    expect(await read(cache, 'a')).toBe('aaaa');
    const file = await pathOf(cache, 'a');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(file))).mode & 0o777).toBe(0o700);
    // 'b' is now the least recently used: storing 'c' pushes it out.
    expect(await cache.put('c', Buffer.from('cccc'))).toBe(true);
    expect(await cache.open('b')).toBeNull();
    expect(await read(cache, 'c')).toBe('cccc');
    // Larger than the whole cache: not stored.
    expect(await cache.put('d', Buffer.alloc(11))).toBe(false);
    await expect(cache.put('../x', Buffer.from('x'))).rejects.toThrow(/safe file name/);
    await cache.close();
    expect(existsSync(dirname(file))).toBe(false);
    expect(await cache.open('a')).toBeNull();
  });
});
