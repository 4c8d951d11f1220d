/**
 * The benchmark's data, written straight into the database with set-based SQL (no request per
 * row): users and their tokens, workspaces, projects, memberships, time entries over two years,
 * and reports with a stored version each. Deterministic: the same scale gives the same data.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/database.js';
import { hashSecret } from '../src/lib/tokens.js';

export interface Scale {
  name: 'full' | 'small';
  entries: number;
  reports: number;
  benchUserReports: number;
}

export const SCALES: Record<'full' | 'small', Scale> = {
  full: { name: 'full', entries: 1_000_000, reports: 10_000, benchUserReports: 2_000 },
  small: { name: 'small', entries: 100_000, reports: 1_000, benchUserReports: 500 },
};

export const USERS = 50;
export const WORKSPACES = 20;
export const PROJECTS_PER_WORKSPACE = 10;

/** Users whose own entries are exactly the render sizes, each in workspace w00 over 2026. */
export const RENDER_USERS = [
  { id: 'render-1k', entries: 1_000 },
  { id: 'render-5k', entries: 5_000 },
  { id: 'render-20k', entries: 20_000 },
  { id: 'render-100k', entries: 100_000 },
] as const;

export const tokenOf = (userId: string): string => `bench-token-${userId}-0123456789abcdef`;
export const userId = (i: number): string => `user-${String(i).padStart(2, '0')}`;
export const workspaceId = (i: number): string => `w${String(i).padStart(2, '0')}`;
/** The user the list and read scenarios act as, owner of `benchUserReports` reports. */
export const BENCH_USER = userId(0);

const ZONES = ['UTC', 'Europe/Paris', 'America/Los_Angeles', 'Asia/Tokyo', 'Europe/London', 'America/New_York'];
const WORDS = ['Review', 'Fix', 'Plan', 'Write', 'Deploy', 'Design', 'Test', 'Refactor', 'Meet', 'Support'];
const THINGS = ['login page', 'invoice export', 'API client', 'onboarding', 'search index', 'release notes', 'backups', 'billing'];
const TAGS = ['billable', 'internal', 'meeting', 'bug', 'feature', 'ops', 'research'];

const list = (values: readonly string[]) => `array[${values.map((v) => `'${v}'`).join(',')}]`;

/** A realistic stored report version of about 3.5 KB, front matter included. */
function markdownSql(reportExpr: string, ownerExpr: string): string {
  const rows = Array.from(
    { length: 30 },
    (_, i) =>
      `| 2026-01-${String((i % 28) + 1).padStart(2, '0')} | 09:${String(i % 60).padStart(2, '0')} | Project ${i % 10} | ${WORDS[i % WORDS.length]} the ${THINGS[i % THINGS.length]} | billable | 1h ${String(i % 60).padStart(2, '0')}m |`,
  ).join('\n');
  const body = `# Timesheet\n\n**Period:** 2026-01-01 – 2026-01-31 · **Total:** 31h 05m\n\n| Date | Time | Project | Description | Tags | Duration |\n|---|---|---|---|---|---:|\n${rows}\n`;
  return `'---' || chr(10) || 'report:' || chr(10) || '  id: ' || ${reportExpr} || chr(10) || '  name: Report ' || ${reportExpr} || chr(10) || '  version: 1' || chr(10) ||
    'owner:' || chr(10) || '  id: ' || ${ownerExpr} || chr(10) || '  name: Bench user' || chr(10) ||
    'period:' || chr(10) || '  from: "2026-01-01"' || chr(10) || '  to: "2026-01-31"' || chr(10) ||
    'timezone: UTC' || chr(10) || 'generatedAt: "2026-02-01T08:00:00.000Z"' || chr(10) ||
    'template:' || chr(10) || '  id: bench' || chr(10) || '  name: Timesheet' || chr(10) ||
    'filters:' || chr(10) || '  workspaceIds:' || chr(10) || '    - w00' || chr(10) || '  dateRange:' || chr(10) || '    from: "2026-01-01"' || chr(10) || '    to: "2026-01-31"' || chr(10) ||
    'totalMinutes: 1865' || chr(10) || '---' || chr(10) || chr(10) || '${body.replaceAll("'", "''")}'`;
}

export async function generate(database: Database, scale: Scale, log: (line: string) => void): Promise<void> {
  const run = (text: string) => database.db.execute(sql.raw(text));
  const users = Array.from({ length: USERS }, (_, i) => userId(i));
  const renderIds = RENDER_USERS.map((u) => u.id);
  const everyone = [...users, ...renderIds];

  log('users, tokens, workspaces, projects');
  await run(`insert into users (id, name, email, timezone, created_at)
    select u, 'Person ' || u, u || '@bench.example', (${list(ZONES)})[1 + (n % ${ZONES.length})], timestamptz '2025-01-01' + n * interval '1 minute'
    from unnest(${list(everyone)}) with ordinality as x(u, n)`);
  await run(`insert into api_tokens (id, user_id, name, token_hash, scopes)
    values ${everyone.map((u) => `('token-${u}', '${u}', 'bench', '${hashSecret(tokenOf(u))}', array['read','write'])`).join(',')}`);
  await run(
    `insert into workspaces (id, name) select 'w' || lpad(g::text, 2, '0'), 'Workspace ' || g from generate_series(0, ${WORKSPACES - 1}) g`,
  );
  // user-k belongs to w(k mod 20), w(k+7 mod 20) and w(k+13 mod 20), the first being their home;
  // the lowest user id of each workspace owns it.
  await run(`insert into workspace_members (workspace_id, user_id, role)
    select distinct 'w' || lpad(((n - 1 + o) % ${WORKSPACES})::text, 2, '0'), u, 'member'
    from unnest(${list(users)}) with ordinality as x(u, n), unnest(array[0, 7, 13]) as o`);
  await run(`update workspace_members set role = 'owner'
    where (workspace_id, user_id) in (select workspace_id, min(user_id) from workspace_members group by workspace_id)`);
  await run(
    `insert into workspace_members (workspace_id, user_id, role) select 'w00', u, 'member' from unnest(${list(renderIds)}) u on conflict do nothing`,
  );
  await run(`insert into projects (id, workspace_id, name)
    select w.id || '-p' || p, w.id, 'Project ' || p || ' of ' || w.name from workspaces w, generate_series(0, ${PROJECTS_PER_WORKSPACE - 1}) p`);
  await run(`insert into project_members (project_id, workspace_id, user_id)
    select p.id, p.workspace_id, m.user_id from projects p join workspace_members m on m.workspace_id = p.workspace_id`);

  const general = scale.entries - RENDER_USERS.reduce((sum, u) => sum + (scale.name === 'small' && u.entries > 20_000 ? 0 : u.entries), 0);
  log(`${scale.entries.toLocaleString('en-US')} time entries`);
  // People's own time over 2025-2026, in one of their workspaces, mostly on a project.
  for (let from = 0; from < general; from += 200_000) {
    const to = Math.min(general, from + 200_000) - 1;
    await run(`insert into time_entries (id, workspace_id, project_id, user_id, start, minutes, description, tags)
      select 'e' || g, m.workspace_id, case when h % 7 = 0 then null else m.workspace_id || '-p' || (h % ${PROJECTS_PER_WORKSPACE}) end, m.user_id,
        timestamptz '2025-01-01' + ((h % 730) * interval '1 day') + ((h / 730 % 600) * interval '1 minute') + interval '7 hours',
        15 + (h % 466), (${list(WORDS)})[1 + h % ${WORDS.length}] || ' the ' || (${list(THINGS)})[1 + (h / 10) % ${THINGS.length}],
        case when h % 3 = 0 then array[]::text[] else array[(${list(TAGS)})[1 + h % ${TAGS.length}]] end
      from generate_series(${from}, ${to}) g
      cross join lateral (select abs(hashtext(g::text)) as h) x
      cross join lateral (select 'user-' || lpad((g % ${USERS})::text, 2, '0') as user_id, 'w' || lpad((g % ${USERS} % ${WORKSPACES})::text, 2, '0') as workspace_id) m`);
    log(`  ${(to + 1).toLocaleString('en-US')} of ${general.toLocaleString('en-US')}`);
  }
  for (const renderUser of RENDER_USERS) {
    if (scale.name === 'small' && renderUser.entries > 20_000) continue;
    // Exactly `entries` entries of theirs in w00 during 2026, so a report's size is known.
    await run(`insert into time_entries (id, workspace_id, project_id, user_id, start, minutes, description, tags)
      select '${renderUser.id}-' || g, 'w00', case when g % 5 = 0 then null else 'w00-p' || (g % ${PROJECTS_PER_WORKSPACE}) end, '${renderUser.id}',
        timestamptz '2026-01-01 08:00' + (g * (interval '365 days' / ${renderUser.entries})),
        15 + (g % 240), (${list(WORDS)})[1 + g % ${WORDS.length}] || ' the ' || (${list(THINGS)})[1 + g % ${THINGS.length}],
        array[(${list(TAGS)})[1 + g % ${TAGS.length}]]
      from generate_series(0, ${renderUser.entries - 1}) g`);
  }
  // Money for the render users' reports: three of four of their entries billable, w00 showing rates
  // to its members, a workspace rate, project rates that change mid-year and a member rate.
  await run(
    `update time_entries set billable = true where workspace_id = 'w00' and user_id like 'render-%' and abs(hashtext(id)) % 4 <> 0`,
  );
  await run(`update workspaces set rates_visible_to = 'members' where id = 'w00'`);
  await run(`insert into rates (id, workspace_id, project_id, user_id, level, effective_from, currency, minor) values
    ('rate-w00', 'w00', null, null, 'workspace', '2025-01-01', 'EUR', 9000),
    ${Array.from(
      { length: 5 },
      (_, p) => `('rate-w00-p${p}-a', 'w00', 'w00-p${p}', null, 'project', '2026-01-01', 'EUR', ${12000 + p * 500}),
    ('rate-w00-p${p}-b', 'w00', 'w00-p${p}', null, 'project', '2026-07-01', 'EUR', ${13000 + p * 500})`,
    ).join(',\n    ')},
    ('rate-w00-render-5k', 'w00', null, 'render-5k', 'workspace_member', '2026-03-01', 'EUR', 10000)`);

  log(`${scale.reports.toLocaleString('en-US')} reports`);
  // Reports and their first versions go in together: a report's key to its version is deferred.
  await database.db.transaction(async (tx) => {
    await tx.execute(
      sql.raw(`insert into reports (id, owner_user_id, template_id, name, filters, workspace_ids, period_from, period_to, total_minutes,
        snapshot_project_ids, restricts_recipients, version, current_content_id, created_at, updated_at)
      select 'r' || g, o.u, 'bench', 'Report ' || g,
        json_build_object('workspaceIds', json_build_array(o.w), 'dateRange', json_build_object('from', '2026-01-01', 'to', '2026-01-31'))::jsonb,
        array[o.w], date '2026-01-01', date '2026-01-31', 1865, array[]::text[], false, 1, 'c' || g,
        timestamptz '2026-02-01' + g * interval '1 second', timestamptz '2026-02-01' + g * interval '1 second'
      from generate_series(1, ${scale.reports}) g
      cross join lateral (select case when g <= ${scale.benchUserReports} then 0 else 1 + g % ${USERS - 1} end as k) own
      cross join lateral (select 'user-' || lpad(own.k::text, 2, '0') as u, 'w' || lpad((own.k % ${WORKSPACES})::text, 2, '0') as w) o`),
    );
    await tx.execute(
      sql.raw(`insert into report_contents (id, report_id, version, rendered_markdown, total_minutes, snapshot_project_ids, created_at)
      select 'c' || substr(r.id, 2), r.id, 1, ${markdownSql('r.id', 'r.owner_user_id')}, 1865, array[]::text[], r.created_at from reports r`),
    );
  });
  await run('analyze');
}
