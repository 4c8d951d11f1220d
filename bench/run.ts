/**
 * `npm run bench`: the real server under load (autocannon), on PGlite and on PostgreSQL, each
 * figure beside a baseline measured in the same run: a bare Fastify server answering the same
 * bytes for HTTP paths, one plain SQL query plus the same LiquidJS render for report renders.
 * BENCH_SCALE=small (about 100,000 entries) runs in a few minutes; the full scale has 1,000,000.
 * BENCH_ENGINES=pglite|postgres runs one engine; BENCH_SECONDS sets each load's duration.
 * BENCH_SCENARIO=hostile runs only the hostile neighbour scenario (bench/hostile.ts), =paths
 * everything but it; unset runs both.
 * Writes bench/results.json and prints a table per engine.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase, type Database } from '../src/db/database.js';
import { runUpkeep } from '../src/db/embedded-upkeep.js';
import { bundleEntry } from '../src/lib/worker-thread.js';
import { BENCH_USER, generate, RENDER_USERS, SCALES, tokenOf, type Scale } from './generate.js';
import { capture, load, startBaseline, type LoadResult } from './load.js';
import { printHostile, runHostile, type HostileOutcome } from './hostile.js';
import { baselineRender, type RenderTiming } from './render-baseline.js';
import { startScriptEnv, startScriptNodeOptions, startServer, type Server } from './server-process.js';
import { bareMail, startSmtpSink, type SmtpSink } from './smtp-sink.js';
import type { BaselineRoute, StatementsName } from './baseline-server.js';

const scale: Scale = SCALES[process.env.BENCH_SCALE === 'small' ? 'small' : 'full'];
const seconds = Number(process.env.BENCH_SECONDS ?? (scale.name === 'small' ? 2 : 10));
const engines = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',');
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const scenario = process.env.BENCH_SCENARIO ?? 'all';
if (!['all', 'paths', 'hostile'].includes(scenario)) throw new Error(`BENCH_SCENARIO must be all, paths or hostile (got ${scenario})`);
const runPaths = scenario !== 'hostile';
const runHostileScenario = scenario !== 'paths';
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdefghijklmnop';

interface Figure {
  scenario: string;
  unit: string;
  chronicle: number;
  baseline: number | null;
  ratio: number | null;
  target: string;
  holds: boolean | null;
  note?: string;
  /**
   * Where measured: the same bare server after Chronicle's own statements for the request, called
   * directly (baseline-server.ts STATEMENTS), as a ratio to the bare server like `ratio`.
   */
  statementFloor?: number;
  /** For the peak memory: the peak of a process that only opens the engine and makes the largest render (memory-floor.ts). */
  memoryFloorMiB?: number;
}

/**
 * Runs bench/memory-floor.ts as a process of its own, bundled as the built server is plain
 * JavaScript (through tsx it would carry the loader's 50 MiB) and with the Node options and the
 * environment `npm start` gives the server, and returns what it printed.
 */
async function memoryFloor(
  databaseUrl: string | null,
  dataDir: string | null,
  userId: string,
  runs: number,
): Promise<{ peakMiB: number; entries: number }> {
  const entry = await bundleEntry(new URL('./memory-floor.ts', import.meta.url));
  const out = execFileSync(process.execPath, [...startScriptNodeOptions(), fileURLToPath(entry)], {
    env: {
      ...process.env,
      ...startScriptEnv(),
      FLOOR_DATABASE_URL: databaseUrl ?? '',
      FLOOR_DATA_DIR: dataDir ?? '',
      FLOOR_USER: userId,
      FLOOR_RUNS: String(runs),
    },
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as { peakMiB: number; entries: number };
}

const log = (line: string) => process.stdout.write(`${line}\n`);

/** How many renders of a user's entries are timed: one past 20,000 entries, else three. */
const rendersOf = (user: { entries: number }): number => (user.entries > 20_000 ? 1 : 3);
/** Unmeasured load before each measured one of the paths' table (see its use). */
const WARMUP_SECONDS = 1;

/**
 * The embedded engine's upkeep (embedded-upkeep.ts) over the freshly generated data, as the
 * server's first pass would find it (every entry inserted since the last vacuum), against a plain
 * `ANALYZE` of the whole database measured just before; then a pass that finds nothing due, the
 * cost of every later minute on a quiet instance. The server the bench starts runs its own passes.
 */
async function embeddedUpkeepFigure(database: Database, scale: Scale): Promise<Figure> {
  const timed = async (work: () => Promise<unknown>): Promise<number> => {
    const started = performance.now();
    await work();
    return performance.now() - started;
  };
  const analyze = await timed(() => database.executeSql('analyze'));
  let tables: string[] = [];
  const first = await timed(async () => {
    tables = (await runUpkeep(database)).map(({ task, error }) => `${task.table}${error ? ' (failed)' : ''}`);
  });
  const idle = await timed(() => runUpkeep(database));
  const figure: Figure = {
    scenario: `embedded upkeep, first pass over ${scale.entries.toLocaleString('en')} generated entries vs ANALYZE of every table`,
    unit: 'ms',
    chronicle: round(first),
    baseline: round(analyze),
    ratio: round(first / analyze, 2),
    target: 'done',
    holds: !tables.some((t) => t.endsWith('(failed)')),
    note: `vacuumed or analysed: ${tables.join(', ') || 'nothing'}; a pass with nothing due ${round(idle, 1)} ms`,
  };
  log(`   ${figure.scenario}: ${JSON.stringify(figure)}`);
  return figure;
}
const auth = (userId: string) => ({ authorization: `Bearer ${tokenOf(userId)}` });
const json = (userId: string) => ({ ...auth(userId), 'content-type': 'application/json' });

async function api<T>(server: Server, method: string, path: string, userId: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: body === undefined ? auth(userId) : json(userId),
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return (await res.json()) as T;
}

/** Runs `work` over `items` with at most `limit` in flight. */
async function inBatches<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i]!, i);
      }
    }),
  );
}

const EMOJI = ['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes'];

/** A sent version with `comments` comments and `reactions` reactions spread over its participants. */
async function thread(server: Server, reportId: string, recipients: string[], comments: number, reactions: number): Promise<string> {
  const report = await api<{ reportContentId: string }>(server, 'GET', `/api/v1/reports/${reportId}`, BENCH_USER);
  await api(server, 'POST', `/api/v1/reports/${reportId}/send`, BENCH_USER, { recipientUserIds: recipients });
  const participants = [BENCH_USER, ...recipients];
  const base = `/api/v1/report-contents/${report.reportContentId}`;
  const ids: string[] = [];
  await inBatches(Array.from({ length: comments }), 16, async (_, i) => {
    const made = await api<{ id: string }>(server, 'POST', `${base}/comments`, participants[i % participants.length]!, {
      body: `Comment ${i}: looks **right** to me`,
    });
    ids[i] = made.id;
  });
  const targets = comments + 1;
  await inBatches(Array.from({ length: reactions }), 16, async (_, i) => {
    const target = i % targets;
    const user = participants[Math.floor(i / targets) % participants.length]!;
    const emoji = EMOJI[Math.floor(i / (targets * participants.length)) % EMOJI.length]!;
    const path = target === 0 ? `${base}/reactions` : `${base}/comments/${ids[target - 1]}/reactions`;
    await api(server, 'PUT', path, user, { emoji });
  });
  return `${base}/discussion`;
}

interface HttpScenario {
  name: string;
  path: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  /** Which figure is compared: throughput (higher is better) or a latency percentile (lower is better). */
  metric: 'rps' | 'p50' | 'p99';
  target: number;
  /** Database statements Chronicle makes per request (pinned by test/api/statements.test.ts), for the floor figure. */
  statements: number;
  /** For a share page: the link whose views are counted (default: the plain link). */
  shareId?: string;
  /** Chronicle's own statements for the request (baseline-server.ts STATEMENTS), for the statement floor figure. */
  statementsFloor?: StatementsName;
  /**
   * Loads of Chronicle and the bare server taken in turn, the figure being the pair whose ratio is
   * the median (default 1). A two-second load on a busy machine moves a ratio by a tenth either
   * way; the rows whose target sits that close take three pairs.
   */
  rounds?: number;
}

/** The figure of a load that a scenario compares: its throughput or one of its latencies. */
function pickOf(metric: HttpScenario['metric'], r: LoadResult): number {
  return metric === 'rps' ? r.requestsPerSecond : metric === 'p50' ? r.p50Ms : r.p99Ms;
}

/** A figure as the notes print it: throughput to a tenth, latencies to the hundredth of a millisecond. */
function shownOf(metric: HttpScenario['metric'], value: number): string {
  return metric === 'rps' ? `${round(value)} req/s` : `${round(value, 2)} ms`;
}

function figureOf(s: HttpScenario, real: LoadResult, bare: LoadResult, note?: string): Figure {
  const chronicle = pickOf(s.metric, real);
  const baseline = pickOf(s.metric, bare);
  const ratio = baseline > 0 ? chronicle / baseline : null;
  const higherIsBetter = s.metric === 'rps';
  const holds = ratio === null ? null : higherIsBetter ? ratio >= s.target : ratio <= s.target;
  return {
    scenario: s.name,
    unit: s.metric === 'rps' ? 'req/s' : `${s.metric} ms`,
    // Latencies to the hundredth of a millisecond: a discussion page's p50 is a few of them.
    chronicle: round(chronicle, higherIsBetter ? 1 : 2),
    baseline: round(baseline, higherIsBetter ? 1 : 2),
    ratio: ratio === null ? null : round(ratio, 2),
    target: `${higherIsBetter ? '>=' : '<='} ${s.target}x`,
    holds,
    ...(note ? { note } : {}),
  };
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * The server's resident memory after a step, and its peak so far (VmHWM): the step after which
 * the peak first reads its final figure is the one that reached it, even where the step's own
 * high point came and went between two readings.
 */
interface MemoryMark {
  scenario: string;
  rssMiB: number;
  peakMiB: number;
}

function markOf(scenario: string, srv: Server): MemoryMark {
  const { rssMiB, peakMiB } = srv.memory();
  return { scenario, rssMiB, peakMiB };
}

async function runEngine(engine: 'pglite' | 'postgres'): Promise<{
  figures: Figure[];
  memory: MemoryMark[];
  peakMiB: number;
  hostile: HostileOutcome | null;
}> {
  log(`\n== ${engine}: ${scale.name} scale`);
  let dataDir: string | null = null;
  let dbName: string | null = null;
  let database: Database;
  const admin = engine === 'postgres' ? new pg.Client({ connectionString: PG_URL }) : null;
  if (admin) {
    await admin.connect();
    dbName = `chronicle_bench_${Date.now().toString(36)}`;
    await admin.query(`create database "${dbName}"`);
  }
  const dbUrl = dbName ? Object.assign(new URL(PG_URL), { pathname: `/${dbName}` }).toString() : null;
  if (engine === 'pglite') dataDir = mkdtempSync(join(tmpdir(), 'chronicle-bench-'));
  let server: Server | null = null;
  let sink: SmtpSink | null = null;
  const figures: Figure[] = [];
  const memory: MemoryMark[] = [];
  let peakMiB = 0;
  let hostile: HostileOutcome | null = null;
  try {
    database = await openDatabase({ databaseUrl: dbUrl, dataDir });
    await database.migrate();
    const started = performance.now();
    await generate(database, scale, (line) => log(`   ${line}`));
    log(`   generated in ${Math.round((performance.now() - started) / 1000)} s`);
    // A database in service is vacuumed by autovacuum within a minute of a load like this one (the
    // generator's update of the render users' entries leaves a dead row for each, and the tags' GIN
    // index a long pending list): measuring before it runs would measure the load, not Chronicle. The embedded
    // engine has no autovacuum; its own upkeep pass (measured here) does the same before the server starts.
    if (database.kind === 'postgres') await database.executeSql('vacuum analyze');
    if (database.kind === 'pglite') figures.push(await embeddedUpkeepFigure(database, scale));
    // The render baseline reads the same data directly: before the server holds the data directory.
    const renderBaselines = new Map<string, RenderTiming>();
    for (const user of runPaths ? RENDER_USERS : []) {
      if (user.entries > 20_000 && scale.name === 'small') continue;
      renderBaselines.set(user.id, await baselineRender(database, user.id, rendersOf(user)));
    }
    await database.close();
    // The floor under the server's peak memory: the engine and the largest of those renders, alone in
    // a process (memory-floor.ts), while the data directory is still free.
    const largest = [...RENDER_USERS].reverse().find((u) => renderBaselines.has(u.id));
    const floor = largest ? await memoryFloor(dbUrl, dataDir, largest.id, rendersOf(largest)) : null;
    if (floor)
      log(`   memory floor (the engine and ${floor.entries.toLocaleString('en-US')} entries rendered, alone): ${floor.peakMiB} MiB`);
    // The statement floors read the same data: on PostgreSQL the same database beside the server; the
    // embedded engine's directory is one process's, so the floors get a copy taken before the server opens it.
    if (dataDir && runPaths) cpSync(dataDir, `${dataDir}-floor`, { recursive: true });
    const storage: Record<string, string> = dataDir
      ? { DATA_DIR: dataDir }
      : { DATABASE_URL: dbUrl ?? '', SHARE_KEY: Buffer.alloc(32, 5).toString('base64') };

    if (runPaths) {
      sink = await startSmtpSink();
      server = await startServer({
        ...storage,
        BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN,
        API_RATE_LIMIT: '0',
        RENDER_MAX_ENTRIES: '200000',
        // The batch scenario stores tens of thousands of entries a second for the bench user.
        ENTRY_QUOTA_PER_USER: '100000000',
        SMTP_URL: sink.url,
      });
      const srv = server;
      log(`   server up (${srv.memory().rssMiB} MiB)`);

      // What only the server can make: links, sent versions, discussions.
      const share = await api<{ token: string; id: string }>(srv, 'POST', '/api/v1/reports/r1/shares', BENCH_USER, {});
      const following = await api<{ token: string; id: string }>(srv, 'POST', '/api/v1/reports/r1/shares', BENCH_USER, {
        follows: 'latest',
      });
      const locked = await api<{ token: string }>(srv, 'POST', '/api/v1/reports/r1/shares', BENCH_USER, {
        passcode: 'correct horse battery',
      });
      // The same page as a browser asks for it, on a link of its own (the baseline answers by path).
      const compressed = await api<{ token: string; id: string }>(srv, 'POST', '/api/v1/reports/r1/shares', BENCH_USER, {});
      const w00 = ['user-20', 'user-40', 'user-13', 'user-33', 'user-07', 'user-27', 'user-47'];
      const smallThread = await thread(srv, 'r2', w00.slice(0, 5), 300, 750);
      const bigThread = scale.name === 'full' ? await thread(srv, 'r3', [...w00, ...RENDER_USERS.map((u) => u.id)], 1000, 5000) : null;
      memory.push(markOf('after setup', srv));

      const entryBody = JSON.stringify({
        workspaceId: 'w00',
        projectId: 'w00-p1',
        start: '2026-06-01T09:00:00Z',
        minutes: 30,
        description: 'Benchmark entry',
        tags: ['bench'],
      });
      // The targets of the second speed pass: the embedded engine's share page has its own.
      const SHARE_TARGET = engine === 'postgres' ? 0.6 : 0.3;
      /** A page as browsers ask for it, beside share pages: their throughput target, no statement of its own. */
      const pageLoad = { method: 'GET', connections: 50, metric: 'rps', target: SHARE_TARGET, statements: 0, rounds: 3 } as const;
      /** The reports list's row, asked for as it is and compressed. */
      const reportsList = {
        path: '/api/v1/reports?limit=50',
        method: 'GET',
        connections: 50,
        metric: 'p99',
        target: 2,
        statements: 2,
        statementsFloor: 'report-list',
      } as const;
      const scenarios: HttpScenario[] = [
        {
          ...pageLoad,
          name: 'GET /share/:token (cached page)',
          path: `/share/${share.token}`,
          headers: {},
        },
        {
          // A browser's request: the page compressed once for the link, then sent as kept
          // (docs/decisions.md "Share pages are compressed once per link"); the baseline sends the same bytes.
          ...pageLoad,
          name: 'GET /share/:token (cached page, Accept-Encoding: br)',
          path: `/share/${compressed.token}`,
          headers: { 'accept-encoding': 'gzip, deflate, br' },
          shareId: compressed.id,
        },
        {
          // Served like any link; its count also answers the version it serves now (delivery.md §2).
          ...pageLoad,
          name: 'GET /share/:token (a link that follows the newest version)',
          path: `/share/${following.token}`,
          headers: {},
          shareId: following.id,
        },
        {
          // What a browser asks for beside every page (docs/web.md "Icons"): bytes kept in memory,
          // through Chronicle's hooks; the baseline sends the same bytes. It comes with share pages,
          // so it has their target.
          ...pageLoad,
          name: 'GET /favicon.ico',
          path: '/favicon.ico',
          headers: {},
        },
        {
          name: 'GET /api/v1/reports/:id',
          path: '/api/v1/reports/r1',
          method: 'GET',
          headers: auth(BENCH_USER),
          connections: 50,
          metric: 'rps',
          target: engine === 'postgres' ? 0.3 : 0.2,
          // The credential is found in the read's own statement.
          statements: 1,
          statementsFloor: 'report-read',
        },
        {
          ...reportsList,
          name: `GET /api/v1/reports?limit=50 (${scale.benchUserReports} reports)`,
          headers: auth(BENCH_USER),
        },
        {
          // As the web app asks for it: compressed while a slot is free (docs/decisions.md "API
          // answers are compressed while a slot is free"); the baseline sends the compressed bytes.
          ...reportsList,
          name: `GET /api/v1/reports?limit=50 (${scale.benchUserReports} reports, Accept-Encoding: br)`,
          headers: { ...auth(BENCH_USER), 'accept-encoding': 'gzip, deflate, br' },
        },
        {
          name: 'GET /api/v1/time-entries?tag= (one workspace, one tag, limit=50)',
          path: '/api/v1/time-entries?workspaceId=w00&tag=meeting&limit=50',
          method: 'GET',
          headers: auth(BENCH_USER),
          connections: 50,
          metric: 'p99',
          target: 3,
          statements: 3,
          statementsFloor: 'entry-list-by-tag',
        },
        {
          name: 'discussion, 300 comments + 750 reactions',
          path: smallThread,
          method: 'GET',
          headers: auth(BENCH_USER),
          connections: 10,
          metric: 'p50',
          target: 3,
          // The credential and the access check in one statement; the page is the process's (discussion-cache.ts).
          statements: 1,
          statementsFloor: 'discussion',
        },
        ...(bigThread
          ? [
              {
                name: 'discussion, 1,000 comments + 5,000 reactions',
                path: bigThread,
                method: 'GET' as const,
                headers: auth(BENCH_USER),
                connections: 10,
                metric: 'p50' as const,
                target: 3,
                statements: 1,
                statementsFloor: 'discussion' as const,
              },
            ]
          : []),
        {
          name: 'POST /api/v1/time-entries (16 in flight)',
          path: '/api/v1/time-entries',
          method: 'POST',
          headers: json(BENCH_USER),
          body: entryBody,
          connections: 16,
          metric: 'rps',
          target: 0.3,
          // The token, then the insert (which checks the rules and the quota itself).
          statements: 2,
          statementsFloor: 'entry-create',
        },
      ];
      const routes: BaselineRoute[] = [];
      for (const s of scenarios) {
        routes.push(
          await capture(
            `${srv.url}${s.path}`,
            { method: s.method, path: s.path.split('?')[0]! },
            { headers: s.headers, ...(s.body ? { body: s.body } : {}) },
          ),
        );
      }
      const baseline = await startBaseline(routes, dataDir ? `pglite:${dataDir}-floor` : (dbUrl ?? undefined));
      try {
        for (const s of scenarios) {
          const options = {
            method: s.method,
            headers: s.headers,
            connections: s.connections,
            seconds,
            ...(s.body ? { body: s.body } : {}),
          };
          const counted = s.shareId ?? share.id;
          // Each server answers the same load for a second first, unmeasured: a route's first
          // requests compile its code and fill its caches, which is not what a steady load costs.
          // autocannon stops with requests in flight, so one more request, answered after them,
          // lets the measured load start on a server that has caught up.
          const warm = async (url: string) => {
            await load({ url, ...options, seconds: WARMUP_SECONDS });
            const drained = await fetch(url, { method: s.method, headers: s.headers, ...(s.body ? { body: s.body } : {}) });
            await drained.arrayBuffer();
          };
          // Chronicle, then the bare server, `rounds` times; the views are checked on the last load.
          const rounds = s.rounds ?? 1;
          const pairs: { real: LoadResult; bare: LoadResult; ratio: number }[] = [];
          let note: string | undefined;
          for (let turn = 1; turn <= rounds; turn++) {
            await warm(`${srv.url}${s.path}`);
            const checked = turn === rounds && s.path.startsWith('/share/');
            const before = checked ? await viewCount(srv, counted) : 0;
            const real = await load({ url: `${srv.url}${s.path}`, ...options });
            if (checked) {
              // autocannon stops with requests in flight, so it cannot say exactly how many were
              // served: after the load settles, a burst whose every answer is read checks exactness.
              const afterLoad = await viewCount(srv, counted);
              const burst = await viewBurst(`${srv.url}${s.path}`, 2000, 50);
              const views = (await viewCount(srv, counted)) - afterLoad;
              note = `viewCount exact: ${views === burst ? 'yes' : 'NO'} (${burst} views of a burst answered 200, ${views} counted; load: ${real.ok} 2xx seen, ${afterLoad - before} counted)`;
            }
            if (real.non2xx + real.errors > 0) note = `${note ? `${note}; ` : ''}${real.non2xx} non-2xx, ${real.errors} errors`;
            await warm(`${baseline.url}${s.path}`);
            const bare = await load({ url: `${baseline.url}${s.path}`, ...options });
            pairs.push({ real, bare, ratio: pickOf(s.metric, real) / Math.max(pickOf(s.metric, bare), Number.MIN_VALUE) });
          }
          const { real, bare } = [...pairs].sort((a, b) => a.ratio - b.ratio)[Math.floor(pairs.length / 2)]!;
          if (rounds > 1) {
            const each = pairs.map((p) => `${round(pickOf(s.metric, p.real))}/${round(pickOf(s.metric, p.bare))} = ${round(p.ratio, 2)}x`);
            note = `${note ? `${note}; ` : ''}${rounds} pairs in turn, the median shown: ${each.join(', ')}`;
          }
          if (s.statements > 0) {
            // The same bare server after as many database round trips as Chronicle makes.
            await warm(`${baseline.url}/floor/${s.statements}${s.path}`);
            const floor = await load({ url: `${baseline.url}/floor/${s.statements}${s.path}`, ...options });
            const pick = pickOf(s.metric, floor);
            note = `${note ? `${note}; ` : ''}floor (bare + ${s.statements} prepared round trips): ${shownOf(s.metric, pick)} = ${round(pick / pickOf(s.metric, bare), 2)}x`;
          }
          let statementFloor: number | undefined;
          if (s.statementsFloor) {
            // The same bare server after Chronicle's own statements for this request, called directly.
            const url = `${baseline.url}/statements/${s.statementsFloor}${s.path}`;
            await warm(url);
            const floor = await load({ url, ...options });
            if (floor.non2xx + floor.errors > 0)
              throw new Error(`statement floor ${s.statementsFloor}: ${floor.non2xx} non-2xx, ${floor.errors} errors`);
            const pick = pickOf(s.metric, floor);
            statementFloor = round(pick / pickOf(s.metric, bare), 2);
            note = `${note ? `${note}; ` : ''}statement floor (bare + Chronicle's own statements, called directly): ${shownOf(s.metric, pick)} = ${statementFloor}x`;
          }
          figures.push({ ...figureOf(s, real, bare, note), ...(statementFloor === undefined ? {} : { statementFloor }) });
          memory.push(markOf(s.name, srv));
          log(`   ${s.name}: ${JSON.stringify(figures.at(-1))}`);
        }

        // The page while a wrong-passcode storm hits another link, read against the bare server as
        // every row is, and against the page alone measured just before (its note): the storm's own
        // cost, on the same minutes of the machine.
        const pageScenario = scenarios[0]!;
        const alone = await load({ url: `${srv.url}${pageScenario.path}`, connections: 50, seconds });
        const storm = load({
          url: `${srv.url}/share/${locked.token}`,
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'passcode=wrong',
          connections: 10,
          seconds,
        });
        const during = await load({ url: `${srv.url}${pageScenario.path}`, connections: 50, seconds });
        await storm;
        const bare = await load({ url: `${baseline.url}${pageScenario.path}`, connections: 50, seconds });
        const ofAlone = alone.requestsPerSecond > 0 ? during.requestsPerSecond / alone.requestsPerSecond : 0;
        const stormNote = `${round(ofAlone, 2)}x of the page alone just before (${round(alone.requestsPerSecond)} req/s)`;
        figures.push(figureOf({ ...pageScenario, name: 'GET /share/:token during a wrong-passcode storm' }, during, bare, stormNote));
        memory.push(markOf('passcode storm', srv));

        // Bulk logging: entries per second through the batch endpoint against single POSTs.
        const single = figures.find((f) => f.scenario.startsWith('POST /api/v1/time-entries '));
        const batchBody = JSON.stringify({ entries: Array.from({ length: 1000 }, () => JSON.parse(entryBody) as unknown) });
        // A few untimed batches first (the statement's plan, the JIT), then a window long enough to
        // hold many 1,000-entry requests.
        for (let i = 0; i < 3; i++) await api(srv, 'POST', '/api/v1/time-entries/batch', BENCH_USER, JSON.parse(batchBody));
        const batched = await load({
          url: `${srv.url}/api/v1/time-entries/batch`,
          method: 'POST',
          headers: json(BENCH_USER),
          body: batchBody,
          connections: 2,
          seconds: Math.max(seconds, 5),
        });
        // Stored entries only: a refused batch (a 409 past the entry quota) stores none.
        const answered = batched.ok + batched.non2xx;
        const entriesPerSecond = answered > 0 ? (batched.requestsPerSecond * 1000 * batched.ok) / answered : 0;
        const ratio = single && single.chronicle > 0 ? entriesPerSecond / single.chronicle : null;
        figures.push({
          scenario: 'POST /api/v1/time-entries/batch, 1,000 entries (2 in flight) vs single POSTs',
          unit: 'entries/s',
          chronicle: round(entriesPerSecond),
          baseline: single ? single.chronicle : null,
          ratio: ratio === null ? null : round(ratio, 2),
          target: '>= 20x',
          holds: ratio === null ? null : ratio >= 20 && batched.non2xx + batched.errors === 0,
          ...(batched.non2xx + batched.errors > 0 ? { note: `${batched.non2xx} non-2xx, ${batched.errors} errors` } : {}),
        });
        memory.push(markOf('batch entries', srv));
        log(`   batch: ${JSON.stringify(figures.at(-1))}`);
      } finally {
        baseline.stop();
      }

      // Report renders: the same entries and template, through the API and directly.
      const rendered = new Map<number, { ms: number; baseMs: number }>();
      const timesheet = (await api<{ id: string; name: string }[]>(srv, 'GET', '/api/v1/templates', BENCH_USER)).find(
        (t) => t.name === 'Timesheet',
      )!.id;
      const templates = await api<{ id: string; name: string }[]>(srv, 'GET', '/api/v1/templates', BENCH_USER);
      for (const user of RENDER_USERS) {
        const base = renderBaselines.get(user.id);
        if (!base) continue;
        // Without money, like the direct render it is compared with (the money row below adds it).
        const body = {
          name: 'Bench',
          templateId: timesheet,
          filters: { workspaceIds: ['w00'], dateRange: { from: '2026-01-01', to: '2026-12-31' } },
          options: { hideAmounts: true },
        };
        const times: number[] = [];
        for (let i = 0; i < rendersOf(user); i++) {
          const t0 = performance.now();
          await api(srv, 'POST', '/api/v1/reports', user.id, body);
          times.push(performance.now() - t0);
        }
        const ms = median(times);
        rendered.set(user.entries, { ms, baseMs: base.ms });
        figures.push({
          scenario: `POST /api/v1/reports, Timesheet, ${user.entries.toLocaleString('en-US')} entries`,
          unit: 'ms',
          chronicle: round(ms),
          baseline: round(base.ms),
          ratio: round(ms / base.ms, 2),
          target: '<= 1.5x',
          holds: ms / base.ms <= 1.5,
          // Each render's time, in order: a median of three hides neither a slow first one nor a drift.
          note: `${round(ms / (user.entries / 1000))} ms per 1,000 entries (baseline ${round(base.ms / (user.entries / 1000))}); each: ${times.map((t) => Math.round(t)).join(', ')} ms`,
        });
        memory.push(markOf(`render ${user.entries}`, srv));
        log(`   ${figures.at(-1)!.scenario}: ${JSON.stringify(figures.at(-1))}`);
      }
      // What each further 1,000 entries cost, between the 5,000- and 20,000-entry renders: the
      // fixed part of a render (the request, the transaction, the hand-off) drops out.
      const [small, large] = [rendered.get(5_000), rendered.get(20_000)];
      if (small && large) {
        const perThousand = (large.ms - small.ms) / 15;
        const basePerThousand = (large.baseMs - small.baseMs) / 15;
        figures.push({
          scenario: 'POST /api/v1/reports, Timesheet, marginal cost per 1,000 entries (5,000 to 20,000)',
          unit: 'ms',
          chronicle: round(perThousand),
          baseline: round(basePerThousand),
          ratio: round(perThousand / basePerThousand, 2),
          target: '<= 25 ms',
          holds: perThousand <= 25,
          note: 'baseline: plain SQL and the same LiquidJS render, called directly',
        });
        log(`   ${figures.at(-1)!.scenario}: ${JSON.stringify(figures.at(-1))}`);
      }
      // A schedule's run: run-now queues it, the job engine picks it up (JOB_POLL_SECONDS), renders
      // last month's Timesheet, stores the version and sends it. Against the same render asked for
      // directly (POST /api/v1/reports with the same preset), best of three each.
      {
        const owner = 'render-5k';
        const body = { name: 'Scheduled', templateId: timesheet, filters: { workspaceIds: ['w00'], dateRange: 'last_month' } };
        const direct: number[] = [];
        for (let i = 0; i < 3; i++) {
          const t0 = performance.now();
          await api(srv, 'POST', '/api/v1/reports', owner, body);
          direct.push(performance.now() - t0);
        }
        const report = await api<{ id: string }>(srv, 'POST', '/api/v1/reports', owner, body);
        await api(srv, 'PUT', `/api/v1/reports/${report.id}/schedule`, owner, { frequency: 'monthly', dayOfMonth: 1, time: '06:00' });
        const runs: number[] = [];
        let outcome = 'none';
        for (let i = 0; i < 3; i++) {
          const t0 = performance.now();
          const queued = await api<{ id: string }>(srv, 'POST', `/api/v1/reports/${report.id}/schedule/run-now`, owner, {});
          for (;;) {
            const list = await api<{ id: string; status: string }[]>(srv, 'GET', `/api/v1/reports/${report.id}/schedule/runs`, owner);
            outcome = list.find((r) => r.id === queued.id)?.status ?? 'missing';
            if (!['queued', 'running'].includes(outcome) || performance.now() - t0 > 60_000) break;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          runs.push(performance.now() - t0);
        }
        const best = Math.min(...runs);
        const bestDirect = Math.min(...direct);
        figures.push({
          scenario: "POST /reports/:id/schedule/run-now, last month's Timesheet, queued to done vs its render",
          unit: 'ms',
          chronicle: round(best),
          baseline: round(bestDirect),
          ratio: round(best / bestDirect, 2),
          target: 'succeeded',
          holds: outcome === 'succeeded',
          note: `last run ${outcome}; includes the job engine's pick-up (JOB_POLL_SECONDS, default 2 s)`,
        });
        log(`   ${figures.at(-1)!.scenario}: ${JSON.stringify(figures.at(-1))}`);
      }
      // Money: the same 5,000-entry reports with rates and amounts, against themselves with amounts
      // hidden (no rate is read then), in pairs taken back to back so that both meet the same
      // machine. The ratio is the median of the pairs' ratios: a busy spell slows both renders of a
      // pair, where it would move one median and not the other. The Invoice summary prints no row
      // per entry: its ratio is what pricing costs. The Timesheet adds two columns to each of its
      // 5,000 rows when it shows money.
      const invoice = templates.find((t) => t.name === 'Invoice summary')!.id;
      for (const [name, templateId] of [
        ['Timesheet', timesheet],
        ['Invoice summary', invoice],
      ] as const) {
        const renderOf = (hideAmounts: boolean) => ({
          name: 'Bench',
          templateId,
          filters: { workspaceIds: ['w00'], dateRange: { from: '2026-01-01', to: '2026-12-31' } },
          options: { hideAmounts },
        });
        const withMoney: number[] = [];
        const without: number[] = [];
        const render = async (hide: boolean): Promise<number> => {
          const t0 = performance.now();
          await api(srv, 'POST', '/api/v1/reports', 'render-5k', renderOf(hide));
          return performance.now() - t0;
        };
        for (let i = 0; i < 11; i++) {
          // Which goes first alternates, so neither always meets the other's leftovers.
          const [first, second] = i % 2 === 0 ? [false, true] : [true, false];
          const a = await render(first);
          const b = await render(second);
          withMoney.push(first ? b : a);
          without.push(first ? a : b);
        }
        const ratio = median(withMoney.map((m, i) => m / without[i]!));
        figures.push({
          scenario: `POST /api/v1/reports, ${name}, 5,000 entries, with money vs amounts hidden`,
          unit: 'ms',
          chronicle: round(median(withMoney)),
          baseline: round(median(without)),
          ratio: round(ratio, 2),
          target: '<= 1.1x',
          holds: ratio <= 1.1,
          note: 'the ratio is the median of 11 back-to-back pairs; the times are medians',
        });
        log(`   ${figures.at(-1)!.scenario}: ${JSON.stringify(figures.at(-1))}`);
      }
      // Exports (docs/exports.md): files of stored versions, each against the render that made the
      // version (a render is the work a file repeats in another form), then the share page's
      // throughput while PDFs are being made, against itself alone: files never hold the pages.
      const exportOf = async (userId: string, contentId: string, format: string) => {
        const t0 = performance.now();
        const res = await fetch(`${srv.url}/api/v1/report-contents/${contentId}/export?format=${format}`, { headers: json(userId) });
        const bytes = (await res.arrayBuffer()).byteLength;
        return { ms: performance.now() - t0, status: res.status, bytes };
      };
      for (const [userId, formats] of [
        ['render-5k', ['pdf']],
        ['render-20k', ['csv', 'xlsx']],
      ] as const) {
        const t0 = performance.now();
        const version = await api<{ reportContentId: string }>(srv, 'POST', '/api/v1/reports', userId, {
          name: 'Bench export',
          templateId: timesheet,
          filters: { workspaceIds: ['w00'], dateRange: { from: '2026-01-01', to: '2026-12-31' } },
        });
        const renderMs = performance.now() - t0;
        const entries = RENDER_USERS.find((u) => u.id === userId)!.entries.toLocaleString('en-US');
        for (const format of formats) {
          const runs = [await exportOf(userId, version.reportContentId, format), await exportOf(userId, version.reportContentId, format)];
          const ms = median(runs.map((r) => r.ms));
          figures.push({
            scenario: `GET /report-contents/:id/export?format=${format}, Timesheet, ${entries} entries, vs its render`,
            unit: 'ms',
            chronicle: round(ms),
            baseline: round(renderMs),
            ratio: round(ms / renderMs, 2),
            target: 'made (200)',
            holds: runs.every((r) => r.status === 200),
            note: `${Math.round(runs[0]!.bytes / 1024)} KiB; status ${runs.map((r) => r.status).join(', ')}`,
          });
          memory.push(markOf(`export ${format} ${entries}`, srv));
          log(`   ${figures.at(-1)!.scenario}: ${JSON.stringify(figures.at(-1))}`);
        }
      }
      {
        const pageUrl = `${srv.url}/share/${share.token}`;
        const alone = await load({ url: pageUrl, connections: 50, seconds });
        // Two users' PDFs, each made again and again, for as long as the share page is loaded.
        const pdfOwners = ['render-5k', 'render-1k'];
        const pdfVersions = await Promise.all(
          pdfOwners.map((userId) =>
            api<{ reportContentId: string }>(srv, 'POST', '/api/v1/reports', userId, {
              name: 'Bench PDF',
              templateId: timesheet,
              filters: { workspaceIds: ['w00'], dateRange: { from: '2026-01-01', to: '2026-12-31' } },
            }),
          ),
        );
        let stop = false;
        let made = 0;
        const makers = pdfOwners.map(async (userId, i) => {
          while (!stop) {
            const res = await exportOf(userId, pdfVersions[i]!.reportContentId, 'pdf');
            if (res.status === 200) made += 1;
          }
        });
        const busy = await load({ url: pageUrl, connections: 50, seconds });
        stop = true;
        await Promise.all(makers);
        figures.push({
          scenario: 'GET /share/:token while PDFs are made (2 in flight) vs alone',
          unit: 'req/s',
          chronicle: round(busy.requestsPerSecond),
          baseline: round(alone.requestsPerSecond),
          ratio: round(busy.requestsPerSecond / alone.requestsPerSecond, 2),
          target: '>= 0.7x',
          holds: busy.requestsPerSecond / alone.requestsPerSecond >= 0.7 && busy.non2xx === 0,
          note: `${made} PDFs made meanwhile; non-2xx ${busy.non2xx}`,
        });
        log(`   ${figures.at(-1)!.scenario}: ${JSON.stringify(figures.at(-1))}`);
      }
      {
        // Mail: 1,001 inbox mails (143 sends to 7 teammates) sent by the job engine to a real SMTP
        // server while the share page is loaded; the request path must not feel it.
        const pageUrl = `${srv.url}/share/${share.token}`;
        const alone = await load({ url: pageUrl, connections: 50, seconds });
        const before = sink.accepted();
        const bytesBefore = sink.acceptedBytes();
        const sendsStarted = performance.now();
        const teammates = ['user-20', 'user-40', 'user-13', 'user-33', 'user-07', 'user-27', 'user-47'];
        await inBatches(Array.from({ length: 143 }), 8, async () => {
          await api(srv, 'POST', '/api/v1/reports/r1/send', BENCH_USER, { recipientUserIds: teammates });
        });
        // The load starts once mail is flowing, so that its window is one of sending.
        const waitStarted = performance.now();
        while (sink.accepted() === before && performance.now() - waitStarted < 60_000) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const atStart = sink.accepted();
        const busy = await load({ url: pageUrl, connections: 50, seconds });
        const duringLoad = sink.accepted() - atStart;
        const sent = sink.accepted() - before;
        figures.push({
          scenario: 'GET /share/:token while 1,001 mails are sent vs alone',
          unit: 'req/s',
          chronicle: round(busy.requestsPerSecond),
          baseline: round(alone.requestsPerSecond),
          ratio: round(busy.requestsPerSecond / alone.requestsPerSecond, 2),
          target: '>= 0.7x',
          holds: busy.requestsPerSecond / alone.requestsPerSecond >= 0.7 && busy.non2xx === 0,
          note: `${duringLoad} mails accepted by SMTP during the load, ${sent} of 1,001 by its end; non-2xx ${busy.non2xx}`,
        });
        log(`   ${figures.at(-1)!.scenario}: ${JSON.stringify(figures.at(-1))}`);
        // The whole backlog, from the first send to the last mail accepted, against the same number
        // of messages of the same size sent straight through Nodemailer's pool to the same server:
        // the job engine, the ticks that hand mail on, composing and the records are the difference.
        while (sink.accepted() - before < 1_001 && performance.now() - sendsStarted < 300_000) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const deliveredMs = performance.now() - sendsStarted;
        const delivered = sink.accepted() - before;
        const averageBytes = Math.round((sink.acceptedBytes() - bytesBefore) / Math.max(1, delivered));
        const bareMs = await bareMail(sink.url, 1_001, averageBytes);
        figures.push({
          scenario: '1,001 mails, first send to the last accepted, vs as many sent straight through Nodemailer',
          unit: 'ms',
          chronicle: round(deliveredMs),
          baseline: round(bareMs),
          ratio: round(deliveredMs / bareMs, 2),
          target: 'all accepted',
          holds: delivered >= 1_001,
          note: `${delivered} accepted; ${averageBytes} bytes a message`,
        });
        log(`   ${figures.at(-1)!.scenario}: ${JSON.stringify(figures.at(-1))}`);
      }
      for (const template of templates) {
        const t0 = performance.now();
        const res = await fetch(`${srv.url}/api/v1/reports/preview`, {
          method: 'POST',
          headers: json(largest!.id),
          body: JSON.stringify({
            name: 'Big',
            templateId: template.id,
            filters: { workspaceIds: ['w00'], dateRange: { from: '2026-01-01', to: '2026-12-31' } },
          }),
        });
        const ms = performance.now() - t0;
        await res.arrayBuffer();
        figures.push({
          scenario: `preview, ${template.name}, ${largest!.entries.toLocaleString('en-US')} entries`,
          unit: 'ms',
          chronicle: round(ms),
          baseline: null,
          ratio: null,
          target: 'renders (200)',
          holds: res.status === 200,
          note: `status ${res.status}`,
        });
        memory.push(markOf(`preview ${template.name}`, srv));
      }
      const { peakMiB: serverPeak, withFilesPeakMiB } = srv.memory();
      peakMiB = serverPeak;
      const limit = engine === 'postgres' ? 200 : 400;
      figures.push({
        scenario: 'peak RSS of the server',
        unit: 'MiB',
        chronicle: peakMiB,
        baseline: null,
        ratio: null,
        target: `<= ${limit} MiB`,
        holds: peakMiB <= limit,
        ...(floor
          ? {
              note: `floor (the engine opened and the same ${floor.entries.toLocaleString('en-US')} entries rendered with the same template, alone in a process, bench/memory-floor.ts): ${floor.peakMiB} MiB`,
              memoryFloorMiB: floor.peakMiB,
            }
          : {}),
      });
      // Files are made in processes of their own (src/render/file-pool.ts): their memory is the
      // machine's too, so it is shown beside the server's, never left out.
      figures.push({
        scenario: 'peak RSS of the server and its file processes together (sampled every 50 ms)',
        unit: 'MiB',
        chronicle: withFilesPeakMiB,
        baseline: null,
        ratio: null,
        target: 'shown',
        holds: true,
      });
      await srv.stop();
      server = null;
    }

    if (runHostileScenario) {
      // Its own server with the default limits (the rate limit on): what a deployment runs.
      hostile = await runHostile({
        start: () => startServer({ ...storage, BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN, API_RATE_LIMIT: '' }),
        adminToken: ADMIN_TOKEN,
        pageReportId: 'r1',
        pageOwnerToken: tokenOf(BENCH_USER),
        scale: scale.name,
        log,
      });
    }
    return { figures, memory, peakMiB, hostile };
  } finally {
    await server?.stop();
    await sink?.close();
    if (dataDir) for (const dir of [dataDir, `${dataDir}-floor`]) rmSync(dir, { recursive: true, force: true });
    if (admin && dbName) {
      await admin.query(`drop database if exists "${dbName}" with (force)`);
      await admin.end();
    }
  }
}

/** Sends `total` GETs with `concurrency` in flight, reads every answer, returns how many were 200. */
async function viewBurst(url: string, total: number, concurrency: number): Promise<number> {
  let ok = 0;
  await inBatches(Array.from({ length: total }), concurrency, async () => {
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.status === 200) ok++;
  });
  return ok;
}

async function viewCount(server: Server, shareId: string): Promise<number> {
  const list = await api<{ id: string; viewCount: number }[]>(server, 'GET', '/api/v1/reports/r1/shares', BENCH_USER);
  return list.find((s) => s.id === shareId)?.viewCount ?? 0;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function printTable(engine: string, figures: Figure[]): void {
  log(`\n${engine} (${scale.name} scale)`);
  log(`${'scenario'.padEnd(58)} ${'chronicle'.padStart(11)} ${'baseline'.padStart(10)} ${'ratio'.padStart(7)}  target          holds`);
  for (const f of figures) {
    const holds = f.holds === null ? '' : f.holds ? 'yes' : 'NO';
    log(
      `${f.scenario.padEnd(58)} ${`${f.chronicle}`.padStart(7)} ${f.unit.padEnd(3).slice(0, 3)} ${f.baseline === null ? ''.padStart(10) : `${f.baseline}`.padStart(10)} ${f.ratio === null ? ''.padStart(7) : `${f.ratio}x`.padStart(7)}  ${f.target.padEnd(15)} ${holds}${f.note ? `  (${f.note})` : ''}`,
    );
  }
}

/** The server's memory after each step: where the peak was reached is where its figure first reads its last value. */
function printMemory(marks: readonly MemoryMark[]): void {
  if (marks.length === 0) return;
  log(`\n${'server memory after each step'.padEnd(58)} ${'RSS'.padStart(7)}     ${'peak so far'.padStart(11)}`);
  for (const m of marks) log(`${m.scenario.padEnd(58)} ${`${m.rssMiB}`.padStart(7)} MiB ${`${m.peakMiB}`.padStart(7)} MiB`);
}

const results: Record<string, unknown> = {
  scale: scale.name,
  date: new Date().toISOString(),
  machine: { cpus: availableParallelism(), model: cpus()[0]?.model ?? 'unknown', node: process.version },
  seconds,
};
const started = performance.now();
log('building the server (npm run build): the bench measures what `npm start` runs');
execFileSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
for (const engine of engines) {
  if (engine !== 'pglite' && engine !== 'postgres') throw new Error(`unknown engine ${engine}`);
  if (engine === 'postgres') {
    const probe = new pg.Client({ connectionString: PG_URL });
    try {
      await probe.connect();
      await probe.end();
    } catch {
      log(`\n== postgres: skipped, ${PG_URL} does not answer`);
      continue;
    }
  }
  const outcome = await runEngine(engine);
  results[engine] = outcome;
  if (runPaths) {
    printTable(engine, outcome.figures);
    printMemory(outcome.memory);
  }
  if (outcome.hostile) printHostile(engine, scale.name, outcome.hostile, log);
}
writeFileSync('bench/results.json', `${JSON.stringify(results, null, 2)}\n`);
log(`\nbench/results.json written; ${Math.round((performance.now() - started) / 1000)} s in all`);
