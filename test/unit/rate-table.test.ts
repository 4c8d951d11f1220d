/**
 * The rate table a render looks each entry's rate up in (src/modules/rates/rate-table.ts): its cells
 * agree with rateFor at every interval, in any zone, and a table past MAX_RATE_CELLS is refused
 * (the render answers 400). test/api/money-properties.test.ts checks the statement's lookup.
 */
import { describe, expect, it } from 'vitest';
import { rateFor, type RateEntry } from '../../packages/money/src/index.js';
import { MAX_RATE_CELLS, rateTable } from '../../src/modules/rates/rate-table.js';
import type { RenderRate } from '../../src/repositories/rates.repository.js';

const eur = (minor: number) => ({ currency: 'EUR', minor });
const rate = (projectId: string | null, userId: string | null, effectiveFrom: string, minor: number | null): RenderRate => ({
  workspaceId: 'w',
  projectId,
  userId,
  effectiveFrom,
  hourly: minor === null ? null : eur(minor),
});

/** The cell of an instant, as the statement computes it (width_bucket and the positions). */
function lookUp(table: NonNullable<ReturnType<typeof rateTable>>, userId: string, projectId: string | null, at: Date) {
  const bucket = table.thresholds.filter((t) => new Date(t).getTime() <= at.getTime()).length;
  const project = projectId === null ? 0 : table.projects.indexOf(projectId) + 1;
  const cell =
    ((0 * table.users.length + table.users.indexOf(userId)) * (table.projects.length + 1) + project) * (table.thresholds.length + 1) +
    bucket;
  const minor = table.minors[cell] ?? null;
  return minor === null ? null : { currency: table.currencies[cell] ?? '', minor };
}

describe('rateTable', () => {
  const users = [
    { id: 'ada', timezone: 'Pacific/Kiritimati' },
    { id: 'bob', timezone: 'America/Santiago' },
  ];
  const rates = [
    rate(null, null, '2026-01-01', 8000),
    rate('p1', null, '2026-03-01', 10000),
    rate('p1', null, '2026-06-01', null),
    rate('p1', 'bob', '2026-04-05', 12000),
    rate(null, 'ada', '2026-09-06', 9000),
  ];

  it('holds the rate rateFor gives at every instant around each start, per user and project', () => {
    const table = rateTable(rates, ['w'], users);
    expect(table).not.toBeNull();
    const entries: RateEntry[] = rates.map(({ workspaceId: _w, ...r }) => r);
    for (const user of users) {
      for (const projectId of ['p1', 'p2', null]) {
        for (const threshold of [...table!.thresholds, '2025-06-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z']) {
          for (const offset of [-60_000, 0, 60_000]) {
            const at = new Date(new Date(threshold).getTime() + offset);
            const expected = rateFor({ start: at, userId: user.id, projectId, timezone: user.timezone }, entries);
            expect(lookUp(table!, user.id, projectId, at), `${user.id} ${projectId} ${at.toISOString()}`).toEqual(expected);
          }
        }
      }
    }
  });

  it('is refused past MAX_RATE_CELLS cells', () => {
    const many = Array.from({ length: 70 }, (_, p) =>
      Array.from({ length: 60 }, (_, d) =>
        rate(`p${p}`, null, `2026-${String(1 + (d % 12)).padStart(2, '0')}-${String(1 + Math.floor(d / 12)).padStart(2, '0')}`, 100),
      ),
    ).flat();
    const people = Array.from({ length: 50 }, (_, i) => ({ id: `u${i}`, timezone: 'UTC' }));
    expect(50 * 71 * 61).toBeGreaterThan(MAX_RATE_CELLS);
    expect(rateTable(many, ['w'], people)).toBeNull();
    expect(rateTable(many, ['w'], people.slice(0, 1))).not.toBeNull();
  });
});
