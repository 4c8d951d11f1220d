/**
 * The rate rule (packages/money `rateFor`, docs/api.md "Rates") laid out as a table a render's
 * statement looks each entry's rate up in, in constant time: an entry's rate depends on its
 * workspace, its user, its project (when that project has rates of its own) and which interval
 * between two consecutive rate starts its start falls in. The table holds one cell per such key and
 * interval; the statement finds the key in a JSON object and the interval with `width_bucket` (a
 * binary search over the sorted starts), so pricing 100,000 entries costs no join.
 *
 * The cells are filled by walking each key's four levels along the starts, which is `rateFor`
 * decided once per interval rather than once per entry; test/unit/rate-table.test.ts and
 * test/api/money-properties.test.ts hold the two together.
 */
import { startOfDay, type Money } from '../../../packages/money/src/index.js';
import type { RateTable } from '../../repositories/report-data.repository.js';
import type { RenderRate } from '../../repositories/rates.repository.js';

/** The key of an entry in the table: its workspace, user, and its project when that project has rates, else ''. */
export const rateKey = (workspaceId: string, userId: string, projectKey: string): string => `${workspaceId}|${userId}|${projectKey}`;

/** The largest table one render may use (keys times intervals). */
export const MAX_RATE_CELLS = 100_000;

/** A level's rows that can apply to a key, oldest first, with the instant each starts for the key's user. */
interface LevelRows {
  starts: number[];
  hourly: (Money | null)[];
}

/**
 * The rate table of `rates` for entries of `users`; null when it would have more than
 * MAX_RATE_CELLS cells (the caller refuses the render).
 */
export function rateTable(rates: readonly RenderRate[], users: readonly { id: string; timezone: string }[]): RateTable | null {
  const byWorkspace = new Map<string, RenderRate[]>();
  for (const rate of rates) {
    const list = byWorkspace.get(rate.workspaceId);
    if (list) list.push(rate);
    else byWorkspace.set(rate.workspaceId, [rate]);
  }
  const sorted = [...byWorkspace.entries()].map(([workspaceId, list]) => ({
    workspaceId,
    rows: [...list].sort((a, b) => (a.effectiveFrom < b.effectiveFrom ? -1 : a.effectiveFrom > b.effectiveFrom ? 1 : 0)),
    projects: [...new Set(list.flatMap((r) => (r.projectId === null ? [] : [r.projectId])))].sort(),
  }));

  // Every instant at which some rate starts for some user: the table's interval bounds.
  const instants = new Set<number>();
  for (const { rows } of sorted) {
    for (const user of users)
      for (const r of rows) if (r.userId === null || r.userId === user.id) instants.add(startOfDay(r.effectiveFrom, user.timezone));
  }
  const thresholds = [...instants].sort((a, b) => a - b);
  const width = thresholds.length + 1;

  const keys: Record<string, number> = {};
  let count = 0;
  for (const { projects } of sorted) count += users.length * (projects.length + 1);
  if (count * width > MAX_RATE_CELLS) return null;

  const currencies: (string | null)[] = [];
  const minors: (number | null)[] = [];
  let next = 0;
  for (const { workspaceId, rows, projects } of sorted) {
    for (const user of users) {
      for (const project of [...projects, '']) {
        keys[rateKey(workspaceId, user.id, project)] = next++;
        const levels = levelsOf(rows, user, project || null);
        const at = levels.map(() => -1);
        for (let bucket = 0; bucket < width; bucket++) {
          // Bucket 0 is before every start; bucket i starts at thresholds[i - 1].
          const instant = bucket === 0 ? -Infinity : (thresholds[bucket - 1] ?? Infinity);
          let rate: Money | null = null;
          levels.forEach((level, i) => {
            let current = at[i] ?? -1;
            while (current + 1 < level.starts.length && (level.starts[current + 1] ?? Infinity) <= instant) current += 1;
            at[i] = current;
          });
          for (const [i, level] of levels.entries()) {
            const hourly = level.hourly[at[i] ?? -1];
            if (hourly) {
              rate = hourly;
              break;
            }
          }
          currencies.push(rate?.currency ?? null);
          minors.push(rate?.minor ?? null);
        }
      }
    }
  }
  return {
    keys,
    projects: sorted.flatMap((w) => w.projects),
    thresholds: thresholds.map((ms) => new Date(ms).toISOString()),
    currencies,
    minors,
  };
}

/** The four levels' rows for one user and project (null: an entry without a project, or one whose project has no rates), most specific level first. */
function levelsOf(rows: readonly RenderRate[], user: { id: string; timezone: string }, projectId: string | null): LevelRows[] {
  const belongs = [
    (r: RenderRate) => projectId !== null && r.projectId === projectId && r.userId === user.id,
    (r: RenderRate) => projectId !== null && r.projectId === projectId && r.userId === null,
    (r: RenderRate) => r.projectId === null && r.userId === user.id,
    (r: RenderRate) => r.projectId === null && r.userId === null,
  ];
  return belongs.map((test) => {
    const mine = rows.filter(test);
    return { starts: mine.map((r) => startOfDay(r.effectiveFrom, user.timezone)), hourly: mine.map((r) => r.hourly) };
  });
}
