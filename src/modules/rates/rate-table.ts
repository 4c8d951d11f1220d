/**
 * The rate rule (packages/money `rateFor`, docs/api.md "Rates") laid out as a table a render's
 * statement looks each entry's rate up in, in constant time: an entry's rate depends on its
 * workspace, its user, its project (when that project has rates of its own) and which interval
 * between two consecutive rate starts its start falls in. The table holds one cell for each; the
 * statement finds an entry's cell by the positions of its keys and `width_bucket` (a binary search
 * over the sorted starts), so pricing 100,000 entries costs no join.
 *
 * The cells are filled by walking each key's four levels along the starts, which is `rateFor`
 * decided once per interval rather than once per entry; test/api/money-properties.test.ts holds
 * the statement to `rateFor` on random rates and entries.
 */
import { startOfDay, type Money } from '../../../packages/money/src/index.js';
import type { RateTable } from '../../repositories/report-data.repository.js';
import type { RenderRate } from '../../repositories/rates.repository.js';

/** The largest table one render may use (workspaces × users × projects × intervals). */
export const MAX_RATE_CELLS = 20_000;

/** One level's rows for a key, oldest first, with the instant each starts for the key's user. */
interface LevelRows {
  starts: number[];
  hourly: (Money | null)[];
}

const byDate = (a: RenderRate, b: RenderRate) => (a.effectiveFrom < b.effectiveFrom ? -1 : a.effectiveFrom > b.effectiveFrom ? 1 : 0);

/**
 * The rate table of `rates` for the entries of `users` in `workspaceIds` (in that order); null when
 * it would have more than MAX_RATE_CELLS cells (the caller refuses the render). Its work is linear
 * in its cells and in the rows times the users: each level's rows are found by key, and each date
 * starts once per time zone.
 */
export function rateTable(
  rates: readonly RenderRate[],
  workspaceIds: readonly string[],
  users: readonly { id: string; timezone: string }[],
): RateTable | null {
  const rows = [...rates].sort(byDate);
  const projects = [...new Set(rows.flatMap((r) => (r.projectId === null ? [] : [r.projectId])))].sort();
  // Each date's first instant in each zone, computed once.
  const dayStarts = new Map<string, Map<string, number>>();
  const startIn = (timezone: string, date: string): number => {
    let days = dayStarts.get(timezone);
    if (!days) dayStarts.set(timezone, (days = new Map<string, number>()));
    let start = days.get(date);
    if (start === undefined) days.set(date, (start = startOfDay(date, timezone)));
    return start;
  };
  // Each level's history by its keys, oldest first (rows are sorted).
  const histories = new Map<string, RenderRate[]>();
  for (const r of rows) {
    const key = levelKey(r.workspaceId, r.projectId, r.userId);
    const list = histories.get(key);
    if (list) list.push(r);
    else histories.set(key, [r]);
  }

  // Every instant at which some rate starts for some user: the bounds of the table's intervals.
  const instants = new Set<number>();
  for (const user of users)
    for (const r of rows) if (r.userId === null || r.userId === user.id) instants.add(startIn(user.timezone, r.effectiveFrom));
  const thresholds = [...instants].sort((a, b) => a - b);
  const width = thresholds.length + 1;
  if (workspaceIds.length * users.length * (projects.length + 1) * width > MAX_RATE_CELLS) return null;

  const currencies: (string | null)[] = [];
  const minors: (number | null)[] = [];
  for (const workspaceId of workspaceIds) {
    for (const user of users) {
      for (const projectId of [null, ...projects]) {
        // The four levels, most specific first; without a project only the workspace's two.
        const levels: LevelRows[] = [
          projectId === null ? [] : (histories.get(levelKey(workspaceId, projectId, user.id)) ?? []),
          projectId === null ? [] : (histories.get(levelKey(workspaceId, projectId, null)) ?? []),
          histories.get(levelKey(workspaceId, null, user.id)) ?? [],
          histories.get(levelKey(workspaceId, null, null)) ?? [],
        ].map((list) => ({ starts: list.map((r) => startIn(user.timezone, r.effectiveFrom)), hourly: list.map((r) => r.hourly) }));
        const at = [-1, -1, -1, -1];
        for (let bucket = 0; bucket < width; bucket++) {
          // Bucket 0 is before every start; bucket i begins at thresholds[i - 1].
          const instant = bucket === 0 ? -Infinity : (thresholds[bucket - 1] ?? Infinity);
          let rate: Money | null = null;
          for (let i = 0; i < levels.length; i++) {
            const level = levels[i] as LevelRows;
            let current = at[i] ?? -1;
            while (current + 1 < level.starts.length && (level.starts[current + 1] ?? Infinity) <= instant) current += 1;
            at[i] = current;
            // The first level, most specific first, whose row in force has an amount; a row without one ends its level.
            rate ??= level.hourly[current] ?? null;
          }
          currencies.push(rate?.currency ?? null);
          minors.push(rate?.minor ?? null);
        }
      }
    }
  }
  return {
    workspaces: [...workspaceIds],
    users: users.map((u) => u.id),
    projects,
    thresholds: thresholds.map((ms) => new Date(ms).toISOString()),
    currencies,
    minors,
  };
}

const levelKey = (workspaceId: string, projectId: string | null, userId: string | null) =>
  `${workspaceId}|${projectId ?? ''}|${userId ?? ''}`;
