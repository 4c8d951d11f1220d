/** What changed between two versions, from what each stored (version-diff.ts). */
import { describe, expect, it } from 'vitest';
import { buildDocument, type FrontMatter } from '../../packages/document/src/index.js';
import { MAX_DIFF_EDITS, bodyDiff, diffVersions, type DiffSide } from '../../src/modules/history/version-diff.js';
import { versionMeta } from '../../src/modules/history/version-meta.js';
import type { VersionSummary } from '../../src/modules/reports/version-summary.js';

const frontMatter = (version: number, filters: Record<string, unknown>): FrontMatter => ({
  report: { id: 'r1', name: 'Report', version },
  owner: { id: 'u1', name: 'Owner' },
  period: { from: '2026-11-01', to: '2026-11-30' },
  timezone: 'UTC',
  generatedAt: `2026-11-2${version}T00:00:00.000Z`,
  template: { id: `t${version}`, name: 'T' },
  filters,
  totalMinutes: 0,
});

const filters = (extra: Record<string, unknown> = {}) => ({
  workspaceIds: ['w1'],
  dateRange: { from: '2026-11-01', to: '2026-11-30' },
  ...extra,
});

type Side = DiffSide & { markdown: string };

function side(version: number, body: string, summary: VersionSummary | null, filterSet = filters()): Side {
  const markdown = buildDocument(frontMatter(version, filterSet), body);
  return {
    reportContentId: `c${version}`,
    version,
    createdAt: new Date('2026-11-22T00:00:00.000Z'),
    totalMinutes: summary?.totalMinutes ?? 30,
    summary,
    meta: versionMeta(markdown),
    markdown,
  };
}

/** The answer as the service builds it, with the line diff a worker computes. */
const compare = (from: Side, to: Side) =>
  diffVersions('r1', from, to, { markdownDiff: bodyDiff(from.markdown, to.markdown, from.version, to.version), markdownDiffOmitted: null });

const summary = (byTag: { tag: string; minutes: number }[]): VersionSummary => ({
  totalMinutes: byTag.reduce((s, g) => s + g.minutes, 0),
  entryCount: byTag.length,
  byProject: [],
  byUser: [],
  byTag: byTag.map((g) => ({ ...g, entryCount: 1 })),
  byDay: [],
});

describe('diffVersions', () => {
  it('leaves the breakdowns out (null) when a version has no stored summary, and still compares the rest', () => {
    const result = compare(side(1, 'a\n', null), side(2, 'b\n', summary([{ tag: 'x', minutes: 10 }])));
    expect(result.byProject).toBeNull();
    expect(result.byTag).toBeNull();
    expect(result.totalMinutes).toEqual({ from: 30, to: 10, deltaMinutes: -20 });
    expect(result.templateId).toEqual({ from: 't1', to: 't2', changed: true });
    expect(result.markdownDiff).toContain('-a');
    expect(result.markdownDiff).toContain('+b');
  });

  it('sorts groups into added, removed and changed', () => {
    const result = compare(
      side(
        1,
        'x\n',
        summary([
          { tag: 'kept', minutes: 10 },
          { tag: 'gone', minutes: 5 },
          { tag: 'same', minutes: 1 },
        ]),
      ),
      side(
        2,
        'x\n',
        summary([
          { tag: 'kept', minutes: 25 },
          { tag: 'new', minutes: 7 },
          { tag: 'same', minutes: 1 },
        ]),
      ),
    );
    expect(result.byTag).toEqual({
      added: [{ key: 'new', label: 'new', fromMinutes: 0, toMinutes: 7, deltaMinutes: 7 }],
      removed: [{ key: 'gone', label: 'gone', fromMinutes: 5, toMinutes: 0, deltaMinutes: -5 }],
      changed: [{ key: 'kept', label: 'kept', fromMinutes: 10, toMinutes: 25, deltaMinutes: 15 }],
    });
    expect(result.markdownDiff).toBe('');
  });

  it('compares filter lists as sets, an omitted list as empty', () => {
    const result = compare(
      side(1, '', null, filters({ projectIds: ['p1', 'p2'], tags: ['a'] })),
      side(2, '', null, filters({ projectIds: ['p2', 'p1'], userIds: ['u2'] })),
    );
    expect(result.filters.changes).toEqual([
      { field: 'userIds', added: ['u2'], removed: [] },
      { field: 'tags', added: [], removed: ['a'] },
    ]);
    expect(result.period.changed).toBe(false);
  });
});

describe('bodyDiff', () => {
  it('gives up (null) on bodies that differ in more lines than a diff may cover', () => {
    const lines = (prefix: string) => Array.from({ length: MAX_DIFF_EDITS + 10 }, (_, i) => `${prefix}${i}`).join('\n');
    const a = buildDocument(frontMatter(1, filters()), lines('a'));
    const b = buildDocument(frontMatter(2, filters()), lines('b'));
    expect(bodyDiff(a, b, 1, 2)).toBeNull();
  });
});
