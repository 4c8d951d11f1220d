/**
 * Scaling out, measured where it can be: one Chronicle process pinned to one core against two
 * processes pinned to one core each, on one PostgreSQL (docs/scaling.md). The same data as the
 * bench (`bench/generate.ts`, small scale), the built server, autocannon in this process.
 *
 *   npm run build && npx tsx bench/scale-out.ts
 *
 * BENCH_DATABASE_URL names the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/test;
 * a fresh database is created and dropped); BENCH_SECONDS sets each window (default 5). When the
 * server preloads pg_stat_statements, the statements' mean times in the two-process window are
 * printed too. Both share-page windows check that every 200 was counted.
 */
import pg from 'pg';
import { openDatabase } from '../src/db/database.js';
import { BENCH_USER, generate, SCALES, tokenOf } from './generate.js';
import { load, type LoadResult } from './load.js';
import { startServer, type Server } from './server-process.js';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const log = (line: string) => process.stdout.write(`${line}\n`);
const auth = { authorization: `Bearer ${tokenOf(BENCH_USER)}` };

interface Path {
  name: string;
  url: (server: Server) => string;
  headers: Record<string, string>;
}

async function post<T>(server: Server, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status >= 400) throw new Error(`POST ${path}: ${res.status}`);
  return (await res.json()) as T;
}

async function viewCount(server: Server, shareId: string): Promise<number> {
  const res = await fetch(`${server.url}/api/v1/reports/r1/shares`, { headers: auth });
  const list = (await res.json()) as { id: string; viewCount: number }[];
  return list.find((s) => s.id === shareId)?.viewCount ?? 0;
}

/** The same load spread over `servers` at once (the connections split evenly); the sum of their figures. */
async function loadAcross(servers: Server[], path: Path): Promise<LoadResult> {
  const results = await Promise.all(
    servers.map((server) => load({ url: path.url(server), headers: path.headers, connections: CONNECTIONS / servers.length, seconds })),
  );
  return {
    requestsPerSecond: results.reduce((sum, r) => sum + r.requestsPerSecond, 0),
    p50Ms: Math.max(...results.map((r) => r.p50Ms)),
    p99Ms: Math.max(...results.map((r) => r.p99Ms)),
    ok: results.reduce((sum, r) => sum + r.ok, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
  };
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const dbName = `chronicle_scale_${Date.now().toString(36)}`;
  await admin.query(`create database "${dbName}"`);
  const url = Object.assign(new URL(PG_URL), { pathname: `/${dbName}` }).toString();
  const servers: Server[] = [];
  try {
    const database = await openDatabase({ databaseUrl: url, dataDir: null });
    await database.migrate();
    await generate(database, SCALES.small, (line) => log(`   ${line}`));
    await database.close();
    const env = { DATABASE_URL: url, SHARE_KEY: Buffer.alloc(32, 5).toString('base64'), API_RATE_LIMIT: '0' };

    const first = await startServer(env, '0');
    servers.push(first);
    const share = await post<{ token: string; id: string }>(first, '/api/v1/reports/r1/shares', {});
    const paths: Path[] = [
      { name: 'GET /share/:token', url: (s) => `${s.url}/share/${share.token}`, headers: {} },
      { name: 'GET /api/v1/reports/:id', url: (s) => `${s.url}/api/v1/reports/r1`, headers: auth },
      { name: 'GET /api/v1/reports?limit=50', url: (s) => `${s.url}/api/v1/reports?limit=50`, headers: auth },
    ];
    const figures: { path: string; one: LoadResult; two: LoadResult }[] = [];
    const one = new Map<string, LoadResult>();
    for (const path of paths) {
      await loadAcross([first], { ...path }); // warm-up
      const before = await viewCount(first, share.id);
      const result = await loadAcross([first], path);
      if (path.name.startsWith('GET /share'))
        log(
          `   one process: ${result.ok} views answered 200, ${(await viewCount(first, share.id)) - before} counted (autocannon stops with some in flight)`,
        );
      one.set(path.name, result);
    }
    const second = await startServer(env, '1');
    servers.push(second);
    const statements = await admin.query(
      `select 1 from pg_settings where name = 'shared_preload_libraries' and setting like '%pg_stat_statements%'`,
    );
    const stats = statements.rowCount ? new pg.Client({ connectionString: url }) : null;
    if (stats) {
      await stats.connect();
      await stats.query('create extension if not exists pg_stat_statements');
    }
    for (const path of paths) {
      await loadAcross([first, second], path);
      if (stats) await stats.query('select pg_stat_statements_reset()');
      const before = await viewCount(first, share.id);
      const result = await loadAcross([first, second], path);
      if (path.name.startsWith('GET /share'))
        log(`   two processes: ${result.ok} views answered 200, ${(await viewCount(first, share.id)) - before} counted`);
      figures.push({ path: path.name, one: one.get(path.name)!, two: result });
      if (stats) {
        const top = await stats.query<{ calls: string; mean: number; query: string }>(
          `select calls, mean_exec_time as mean, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) as query
           from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
           order by total_exec_time desc limit 3`,
        );
        for (const row of top.rows) log(`     ${path.name}: ${row.calls} calls, ${row.mean.toFixed(3)} ms each: ${row.query}`);
      }
    }
    await stats?.end();
    log('');
    log('| path | one process on one core | two processes, one core each | ratio |');
    log('|---|---|---|---|');
    for (const f of figures) {
      const unit = f.path.includes('limit=50') ? `p99 ${f.one.p99Ms.toFixed(1)} ms` : `${Math.round(f.one.requestsPerSecond)} req/s`;
      const unitTwo = f.path.includes('limit=50') ? `p99 ${f.two.p99Ms.toFixed(1)} ms` : `${Math.round(f.two.requestsPerSecond)} req/s`;
      log(`| ${f.path} | ${unit} | ${unitTwo} | ${(f.two.requestsPerSecond / f.one.requestsPerSecond).toFixed(2)}x |`);
    }
  } finally {
    for (const server of servers) await server.stop(10_000);
    await admin.query(`drop database if exists "${dbName}" with (force)`);
    await admin.end();
  }
}

await main();
