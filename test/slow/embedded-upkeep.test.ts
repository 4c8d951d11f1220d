/**
 * A server on the embedded engine keeps its tables as autovacuum would and checkpoints as the
 * checkpointer would (src/app.ts startEmbeddedUpkeep, src/db/embedded-upkeep.ts): entries logged
 * over the API are vacuumed and analysed by the next pass, a checkpoint follows once
 * checkpoint_timeout has passed, the metrics count both; closing the app waits for a pass under way.
 * On PostgreSQL the server's own autovacuum does this, so the run on PostgreSQL skips it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';
import { newWorkspace } from '../helpers/factories.js';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(onPostgres)('the embedded engine’s upkeep', () => {
  let t: TestContext;
  let owner: TestUser;
  beforeAll(async () => {
    t = await buildTestApp({ jobs: true, config: { embeddedUpkeepSeconds: 1, jobPollSeconds: 600, scheduleTickSeconds: 3_600 } });
    owner = await newUser(t);
  });
  afterAll(() => t.close());

  async function entryStats(): Promise<{ vacuums: number; analyses: number; tuples: number }> {
    const { rows } = await t.database.executeSql(
      `select s.vacuum_count::int as vacuums, s.analyze_count::int as analyses, c.reltuples::int as tuples
       from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.relname = 'time_entries'`,
    );
    return rows[0] as { vacuums: number; analyses: number; tuples: number };
  }

  it('vacuums and analyses the entries a team logged, and counts it', async () => {
    const ws = (await newWorkspace(t, owner)).id;
    const before = await entryStats();
    for (let batch = 0; batch < 2; batch++) {
      const entries = Array.from({ length: 1000 }, (_, i) => ({
        workspaceId: ws,
        start: new Date(Date.UTC(2026, 0, 1) + (batch * 1000 + i) * 3_600_000).toISOString(),
        minutes: 30,
      }));
      expect((await t.post('/api/v1/time-entries/batch', { entries }, owner.token)).status).toBe(201);
    }
    await expect.poll(async () => (await entryStats()).tuples, { timeout: 60_000, interval: 100 }).toBeGreaterThanOrEqual(2000);
    const after = await entryStats();
    expect(after.vacuums).toBeGreaterThan(before.vacuums);
    expect(after.analyses).toBeGreaterThan(before.analyses);
    const metrics = (await t.request('GET', '/metrics', { token: null })).text;
    expect(metrics).toMatch(/^chronicle_database_upkeep_total\{operation="vacuum_analyze",outcome="ok"\} [1-9]/m);
  });

  it('checkpoints once checkpoint_timeout has passed by the application’s clock', async () => {
    t.clock.advance(10 * 60_000);
    await expect
      .poll(async () => (await t.request('GET', '/metrics', { token: null })).text, { timeout: 60_000, interval: 100 })
      .toMatch(/^chronicle_database_upkeep_total\{operation="checkpoint",outcome="ok"\} [1-9]/m);
    const { rows } = await t.database.executeSql(
      'select (pg_current_wal_insert_lsn() - redo_lsn)::float8 as since from pg_control_checkpoint()',
    );
    expect((rows[0] as { since: number }).since).toBeLessThan(1_000_000);
  });
});
