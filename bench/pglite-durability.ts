/**
 * What durable commits would cost on the embedded engine, and whether they can be had at all:
 * single-row committed inserts into a fresh data directory with `fsync` off (PGlite's default)
 * and asked for on. Run: `npx tsx bench/pglite-durability.ts` (docs/operations.md "Durability").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

const COMMITS = Number(process.env.COMMITS ?? 1000);

async function measure(fsync: boolean): Promise<{ perSecond: number; shown: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'chronicle-durability-'));
  try {
    const db = await PGlite.create(dir, {
      postgresqlconf: ['shared_buffers = 32MB', `fsync = ${fsync ? 'on' : 'off'}`, `synchronous_commit = ${fsync ? 'on' : 'off'}`],
    });
    const shown = (await db.query<{ fsync: string }>('show fsync')).rows[0]?.fsync ?? '?';
    await db.exec('create table t (id serial primary key, body text not null)');
    const started = process.hrtime.bigint();
    for (let i = 0; i < COMMITS; i++) await db.query('insert into t (body) values ($1)', [`row ${i}`]);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    await db.close();
    return { perSecond: Math.round(COMMITS / seconds), shown };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const fsync of [false, true, false, true]) {
  const { perSecond, shown } = await measure(fsync);
  console.log(`fsync requested ${fsync ? 'on ' : 'off'} (SHOW fsync: ${shown}): ${perSecond} commits/s over ${COMMITS}`);
}
