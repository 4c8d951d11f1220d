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
export const MAX_RATE_CELLS = 200_000;

/** One level's rows for a key, oldest first, with the instant each starts for the key's user. */
interface LevelRows {
  starts: number[];
  hourly: (Money | null)[];
}

const byDate = (a: RenderRate, b: RenderRate) => (a.effectiveFrom < b.effectiveFrom ? -1 : a.effectiveFrom > b.effectiveFrom ? 1 : 0);

/**
 * The rate table of `rates` for the entries of `users` in `workspaceIds` (in that order); null when
 * it would have more than MAX_RATE_CELLS cells (the caller refuses the render).
 */
export function rateTable(
  rates: readonly RenderRate[],
  workspaceIds: readonly string[],
  users: readonly { id: string; timezone: string }[],
): RateTable | null {
  const rows = [...rates].sort(byDate);
  const projects = [...new Set(rows.flatMap((r) => (r.projectId === null ? [] : [r.projectId])))].sort();

  // Every instant at which some rate starts for some user: the bounds of the table's intervals.
  const instants = new Set<number>();
  for (const user of users)
    for (const r of rows) if (r.userId === null || r.userId === user.id) instants.add(startOfDay(r.effectiveFrom, user.timezone));
  const thresholds = [...instants].sort((a, b) => a - b);
  const width = thresholds.length + 1;
  if (workspaceIds.length * users.length * (projects.length + 1) * width > MAX_RATE_CELLS) return null;

  const currencies: (string | null)[] = [];
  const minors: (number | null)[] = [];
  for (const workspaceId of workspaceIds) {
    const inWorkspace = rows.filter((r) => r.workspaceId === workspaceId);
    for (const user of users) {
      for (const projectId of [null, ...projects]) {
        const levels = levelsOf(inWorkspace, user, projectId);
        const at = levels.map(() => -1);
        for (let bucket = 0; bucket < width; bucket++) {
          // Bucket 0 is before every start; bucket i begins at thresholds[i - 1].
          const instant = bucket === 0 ? -Infinity : (thresholds[bucket - 1] ?? Infinity);
          let rate: Money | null = null;
          for (const [i, level] of levels.entries()) {
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

/** The four levels' rows for one user and project (null: no project, or one without rates of its own), most specific first. */
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
