import { describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newId', () => {
  it('makes UUID v7 ids, each new and in the order made, past several refills of its random pool', () => {
    // 3,000 ids draw about 6,000 random words from a pool of 1,024.
    const ids = Array.from({ length: 3_000 }, () => newId());
    for (const id of ids) expect(id).toMatch(UUID_V7);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    // The random part differs from id to id, not only the counter.
    expect(new Set(ids.map((id) => id.slice(-12))).size).toBe(ids.length);
  });
});
