/**
 * Share pages too large for the in-memory page cache, kept as files of this process
 * (docs/decisions.md "Large share pages"). A page is keyed by its content version id and the
 * branding stamp it was rendered with (viewer.service.ts): versions never change (the database
 * refuses updates), and the page's HTML depends on nothing else but the branding and this build's
 * page template, which a process never changes. Files live in a private directory
 * (0700, made by mkdtemp under os.tmpdir()), are written to a temporary name and renamed, so a
 * reader never sees half a page, are bounded in total size (least recently used first out), and
 * are removed with the directory when the app closes. Nothing here is shared between processes:
 * another process renders its own copy once.
 */
import type { FileHandle } from 'node:fs/promises';
import { mkdtemp, open, rm, unlink, writeFile, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';

export interface PageFileCache {
  /** The stored page, opened (the caller streams and closes it); null when it is not stored. */
  open(key: string): Promise<{ handle: FileHandle; size: number } | null>;
  /** Stores a page; false when it is larger than the whole cache (the caller serves it from memory once). */
  put(key: string, html: Buffer): Promise<boolean>;
  close(): Promise<void>;
}

/** Keys are content version ids (`newId()`) with a stamp: letters, digits, `-` and `_` only, so safe as file names. */
const SAFE_KEY = /^[A-Za-z0-9_-]{1,100}$/;

export function createPageFileCache(maxBytes: number): PageFileCache {
  let directory: Promise<string> | null = null;
  let closed = false;
  let written = 0;
  const dir = () => (directory ??= mkdtemp(join(tmpdir(), 'chronicle-share-pages-')));
  const pathOf = async (key: string) => join(await dir(), `${key}.html`);
  // Evicting a page unlinks its file; a reader that has it open keeps reading it (POSIX).
  const files = new LRUCache<string, number>({
    maxSize: maxBytes,
    sizeCalculation: (size) => Math.max(1, size),
    dispose: (_size, key, reason) => {
      if (reason === 'set') return;
      void pathOf(key).then((path) => unlink(path).catch(() => undefined));
    },
  });

  return {
    async open(key) {
      const size = files.get(key);
      if (size === undefined || closed) return null;
      try {
        return { handle: await open(await pathOf(key), 'r'), size };
      } catch {
        // Evicted (and unlinked) between the lookup and the open.
        return null;
      }
    },
    async put(key, html) {
      if (!SAFE_KEY.test(key)) throw new Error('page cache key is not a safe file name');
      if (closed || html.length > maxBytes) return false;
      const path = await pathOf(key);
      written += 1;
      const temporary = `${path}.${process.pid}.${written}.tmp`;
      await writeFile(temporary, html, { mode: 0o600, flag: 'wx' });
      await rename(temporary, path);
      files.set(key, html.length);
      return true;
    },
    async close() {
      closed = true;
      files.clear();
      if (directory) await rm(await directory, { recursive: true, force: true });
    },
  };
}
