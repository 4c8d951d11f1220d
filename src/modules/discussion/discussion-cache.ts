/**
 * Discussion pages as a process sent them, kept for the revision they were built at
 * (discussion_revisions, migration 0022). Every write a discussion read shows moves the
 * revision in its own statement, so a page found under the revision the caller's access check
 * just read is exactly what the database would build now, on this process or any other: a read
 * then costs the authentication and the access check, not the document. Pages differ by caller
 * (what they may edit, what they reacted to), by whether the version was sent, and by page, so
 * those are part of the key. Bounded by size; least recently used first out.
 */
import { LRUCache } from 'lru-cache';
import type { Page } from '../../lib/paging.js';

export interface CachedDiscussionPage {
  document: string;
  total: number;
  /** The page's entity tag, hashed once when the page is built rather than on every read. */
  tag: string;
}

export interface DiscussionPageKey {
  contentId: string;
  revision: number;
  callerId: string;
  shared: boolean;
  page: Page;
}

export type DiscussionCache = LRUCache<string, CachedDiscussionPage>;

/** What the cache may hold: the documents' text, counted as two bytes per character. */
export const DISCUSSION_CACHE_BYTES = 16 * 1024 * 1024;

export function discussionCache(maxBytes = DISCUSSION_CACHE_BYTES): DiscussionCache {
  return new LRUCache<string, CachedDiscussionPage>({
    maxSize: maxBytes,
    // A page larger than a quarter of the cache is not kept: it would push out everything else.
    maxEntrySize: Math.floor(maxBytes / 4),
    sizeCalculation: (page) => page.document.length * 2 + page.tag.length * 2 + 64,
  });
}

export const discussionPageKey = (key: DiscussionPageKey): string =>
  [key.contentId, key.revision, key.callerId, key.shared ? 1 : 0, key.page.limit, key.page.offset].join('\n');
