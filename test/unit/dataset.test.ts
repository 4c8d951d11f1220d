/**
 * A version's frozen dataset (dataset.ts, docs/exports.md "The frozen dataset"): format 2 keeps the
 * render statement's tuples as they came, with the render's names; both it and format 1, which
 * earlier releases stored, read as the same rows.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeDataset, encodeDataset, readsDatasetFormat, type DatasetFrame } from '../../src/modules/exports/dataset.js';
import type { EntryTuple } from '../../src/render/render-context.js';

const eur = (minor: number) => ({ currency: 'EUR', minor });

/** Out of order, as the statement's `json_agg` may give them; one without a project, one a client's. */
const TUPLES: EntryTuple[] = [
  [
    'e3',
    '2026-11-02T08:00:00.000Z',
    '2026-11-02',
    '09:00',
    90,
    'Second "day"\nline',
    ['x', 'ünï'],
    'p-acme',
    'u-bob',
    'w1',
    true,
    90,
    'EUR',
    12_000,
    18_000,
  ],
  ['e1', '2026-11-01T08:00:00.000Z', '2026-11-01', '09:00', 30, 'First', [], null, 'u-ann', 'w1', false, 0, null, null, null],
  [
    'e2',
    '2026-11-01T08:00:00.000Z',
    '2026-11-01',
    '09:00',
    45,
    'Same start, later id',
    ['x'],
    'p-own',
    'u-ann',
    'w1',
    true,
    60,
    'EUR',
    9_000,
    9_000,
  ],
];

function frame(moneyVisible: boolean): DatasetFrame {
  return {
    timezone: 'Europe/Paris',
    locale: 'de',
    naming: {
      workspaces: [{ id: 'w1', name: 'Studio' }],
      aggregates: {
        moneyVisible,
        byClient: [
          { id: 'c-acme', name: 'Acme & Co' },
          { id: null, name: 'No client' },
        ],
        byProject: [
          { id: 'p-acme', name: 'Website', clientId: 'c-acme' },
          { id: 'p-own', name: 'Internal', clientId: null },
          { id: null, name: 'No project' },
        ],
        byUser: [
          { id: 'u-ann', name: 'Ann' },
          { id: 'u-bob', name: 'Bob' },
        ],
      },
    },
  };
}

const encode = (tuples: EntryTuple[], moneyVisible: boolean) => encodeDataset(JSON.stringify(tuples), frame(moneyVisible), tuples.length);

/** What the JSON of a stored dataset holds, before any reading. */
const stored = (data: string): Record<string, unknown> =>
  JSON.parse(gunzipSync(Buffer.from(data, 'base64')).toString('utf8')) as Record<string, unknown>;

describe('a dataset of format 2', () => {
  it('reads as the rows the render showed: sorted by start then id, named, with client and money', () => {
    const encoded = encode(TUPLES, true);
    expect(encoded.entryCount).toBe(3);
    const dataset = decodeDataset(encoded.data);
    expect(dataset).toMatchObject({ format: 2, timezone: 'Europe/Paris', locale: 'de', moneyVisible: true });
    expect(dataset.entries.map((e) => e.id)).toEqual(['e1', 'e2', 'e3']);
    expect(dataset.entries[0]).toEqual({
      id: 'e1',
      start: '2026-11-01T08:00:00.000Z',
      date: '2026-11-01',
      time: '09:00',
      user: { id: 'u-ann', name: 'Ann' },
      project: null,
      client: null,
      tags: [],
      description: 'First',
      minutes: 30,
      billable: false,
      billableMinutes: 0,
      rate: null,
      amount: null,
    });
    expect(dataset.entries[2]).toMatchObject({
      description: 'Second "day"\nline',
      tags: ['x', 'ünï'],
      project: { id: 'p-acme', name: 'Website' },
      client: { id: 'c-acme', name: 'Acme & Co' },
      user: { id: 'u-bob', name: 'Bob' },
      billableMinutes: 90,
      rate: eur(12_000),
      amount: eur(18_000),
    });
    expect(dataset.entries[1]).toMatchObject({ project: { id: 'p-own', name: 'Internal' }, client: null, amount: eur(9_000) });
  });

  it('keeps the statement’s tuples as they came, and no money where the version shows none, even if a tuple carried some', () => {
    const raw = stored(encode(TUPLES, true).data);
    expect(raw.entries).toEqual(TUPLES);
    const hidden = decodeDataset(encode(TUPLES, false).data);
    expect(hidden.moneyVisible).toBe(false);
    expect(hidden.entries.map((e) => [e.rate, e.amount])).toEqual([
      [null, null],
      [null, null],
      [null, null],
    ]);
    // Billable minutes are time, not money: they stay.
    expect(hidden.entries.map((e) => e.billableMinutes)).toEqual([0, 60, 90]);
  });

  it('holds no entries when the render read none', () => {
    const dataset = decodeDataset(encodeDataset('[]', frame(true), 0).data);
    expect(dataset.entries).toEqual([]);
  });
});

describe('a dataset of format 1, as earlier releases stored it', () => {
  it('reads as the same rows as format 2 made from the same entries', () => {
    const rows = decodeDataset(encode(TUPLES, true).data).entries;
    // Format 1: one object per entry, written out in full, gzipped at level 6.
    const earlier = gzipSync(JSON.stringify({ format: 1, timezone: 'Europe/Paris', locale: 'de', moneyVisible: true, entries: rows }), {
      level: 6,
    });
    const dataset = decodeDataset(earlier.toString('base64'));
    expect(dataset.format).toBe(1);
    expect(dataset.entries).toEqual(rows);
  });
});

describe('formats this release does not know', () => {
  it('are refused', () => {
    expect([1, 2, 3, 0].map(readsDatasetFormat)).toEqual([true, true, false, false]);
    const later = gzipSync(JSON.stringify({ format: 3, entries: [] })).toString('base64');
    expect(() => decodeDataset(later)).toThrow('format 3');
    expect(() => decodeDataset(gzipSync(JSON.stringify({ format: 2 })).toString('base64'))).toThrow('without entries');
  });
});
