/**
 * The baseline of a report render: the same entries fetched by one plain SQL query, and the same
 * LiquidJS render of the built-in Timesheet, called directly in this process. What Chronicle does
 * beyond this (access checks, aggregates, the worker, the front matter, storing the version) is
 * what the ratio measures.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/database.js';
import { rowsOf } from '../src/db/rows.js';
import { BUILTIN_TEMPLATES } from '../src/render/builtin-templates.js';
import { buildRenderContext, type EntryTuple, type RenderAggregates } from '../src/render/render-context.js';
import { limitsFor, renderTemplate } from '../src/render/template-engine.js';

export interface RenderTiming {
  ms: number;
  entries: number;
}

interface Row {
  id: string;
  start: string;
  minutes: number;
  description: string;
  tags: string[];
  project_id: string | null;
  project_name: string | null;
  user_id: string;
  user_name: string;
  workspace_id: string;
  workspace_name: string;
  timezone: string;
}

/** Median of `runs` (query + render) for the entries of `userId` in w00 during 2026. */
export async function baselineRender(database: Database, userId: string, runs: number): Promise<RenderTiming> {
  const body = BUILTIN_TEMPLATES.find((t) => t.key === 'timesheet')!.body;
  const times: number[] = [];
  let entries = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const rows = rowsOf<Row>(
      await database.db.execute(sql`
        select e.id, e.start::text as start, e.minutes, e.description, e.tags, e.project_id, p.name as project_name,
          e.user_id, u.name as user_name, e.workspace_id, w.name as workspace_name, u.timezone
        from time_entries e join users u on u.id = e.user_id join workspaces w on w.id = e.workspace_id left join projects p on p.id = e.project_id
        where e.user_id = ${userId} and e.workspace_id = 'w00' and e.start >= '2026-01-01' and e.start < '2027-01-01'
        order by e.start, e.id`),
    );
    entries = rows.length;
    const timezone = rows[0]?.timezone ?? 'UTC';
    const format = new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    const byProject = new Map<string | null, { name: string; minutes: number; entryCount: number }>();
    const byDay = new Map<string, { minutes: number; entryCount: number }>();
    let total = 0;
    const tuples: EntryTuple[] = rows.map((r) => {
      const start = new Date(r.start);
      const parts = Object.fromEntries(format.formatToParts(start).map((p) => [p.type, p.value]));
      const date = `${parts.year}-${parts.month}-${parts.day}`;
      total += r.minutes;
      const project = byProject.get(r.project_id) ?? { name: r.project_name ?? 'No project', minutes: 0, entryCount: 0 };
      project.minutes += r.minutes;
      project.entryCount += 1;
      byProject.set(r.project_id, project);
      const day = byDay.get(date) ?? { minutes: 0, entryCount: 0 };
      day.minutes += r.minutes;
      day.entryCount += 1;
      byDay.set(date, day);
      return [
        r.id,
        start.toISOString(),
        date,
        `${parts.hour}:${parts.minute}`,
        r.minutes,
        r.description,
        r.tags,
        r.project_id,
        r.user_id,
        r.workspace_id,
      ];
    });
    const aggregates: RenderAggregates = {
      totalMinutes: total,
      entryCount: rows.length,
      byProject: [...byProject].map(([id, g]) => ({ id, ...g })),
      byUser: [{ id: userId, name: rows[0]?.user_name ?? '', minutes: total, entryCount: rows.length }],
      byTag: [],
      byDay: [...byDay].map(([date, g]) => ({ date, ...g })),
    };
    const context = buildRenderContext({
      report: { id: 'baseline', name: 'Bench', note: null, version: 1 },
      period: { from: '2026-01-01', to: '2026-12-31', preset: null },
      timezone,
      generatedAt: new Date().toISOString(),
      owner: { id: userId, name: rows[0]?.user_name ?? '', email: 'bench@example.com' },
      workspaces: [{ id: 'w00', name: rows[0]?.workspace_name ?? '' }],
      template: { id: 'timesheet', name: 'Timesheet' },
      aggregates,
      entries: tuples,
    });
    await renderTemplate(body, context, limitsFor(rows.length));
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)] ?? 0, entries };
}
