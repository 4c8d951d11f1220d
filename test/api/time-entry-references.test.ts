/**
 * A time entry's workspace, user and project are kept by triggers rather than foreign keys
 * (migration 0009, docs/decisions.md "Time entries' references are checked per statement"): these
 * tests hold the triggers to everything the foreign keys did, straight against the database, so
 * that no route's own checks hide a gap.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { pgErrorCode } from '../../src/db/errors.js';
import { rowsOf } from '../../src/db/rows.js';
import { resetDatabase, testDatabase, testDatabaseUrl } from '../helpers/test-database.js';

let database: Database;
let sequence = 0;

interface Row {
  workspace: string;
  user: string;
  project?: string | null;
}

const values = (rows: Row[]) =>
  sql.join(
    rows.map((r) => sql`(${`e${++sequence}`}, ${r.workspace}, ${r.project ?? null}, ${r.user}, now(), 30)`),
    sql`, `,
  );

/** One statement inserting every row. */
const insert = (rows: Row[]) =>
  database.db.execute(sql`insert into time_entries (id, workspace_id, project_id, user_id, start, minutes) values ${values(rows)}`);

async function count(where = sql`true`): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from time_entries where ${where}`));
  return row!.n;
}

async function refusal(work: Promise<unknown>): Promise<string | undefined> {
  try {
    await work;
  } catch (error) {
    return pgErrorCode(error);
  }
  return 'not refused';
}

beforeAll(async () => {
  database = await testDatabase();
});

beforeEach(async () => {
  await resetDatabase(database);
  await database.db.execute(
    sql`insert into users (id, name, email) values ('u1', 'Ana', 'ana@example.test'), ('u2', 'Ben', 'ben@example.test')`,
  );
  await database.db.execute(sql`insert into workspaces (id, name) values ('w1', 'One'), ('w2', 'Two')`);
  await database.db.execute(sql`insert into projects (id, workspace_id, name) values ('p1', 'w1', 'P1'), ('p2', 'w2', 'P2')`);
});

describe('time entry references', () => {
  it('store entries that name an existing workspace, user and (optionally) a project of that workspace', async () => {
    await insert([
      { workspace: 'w1', user: 'u1', project: 'p1' },
      { workspace: 'w1', user: 'u2' },
      { workspace: 'w2', user: 'u1', project: 'p2' },
    ]);
    expect(await count()).toBe(3);
  });

  it.each([
    ['a missing workspace', { workspace: 'nope', user: 'u1' }],
    ['a missing user', { workspace: 'w1', user: 'nope' }],
    ['a missing project', { workspace: 'w1', user: 'u1', project: 'nope' }],
    ["another workspace's project", { workspace: 'w1', user: 'u1', project: 'p2' }],
  ])('refuse a whole statement when one of its rows names %s (23503), storing none of it', async (_, bad) => {
    const good = Array.from({ length: 5 }, () => ({ workspace: 'w1', user: 'u1', project: 'p1' }));
    expect(await refusal(insert([...good.slice(0, 3), bad, ...good.slice(3)]))).toBe('23503');
    expect(await refusal(insert([bad]))).toBe('23503');
    expect(await count()).toBe(0);
  });

  it('refuse an update that moves an entry to a missing user or to a project of another workspace', async () => {
    await insert([{ workspace: 'w1', user: 'u1', project: 'p1' }]);
    expect(await refusal(database.db.execute(sql`update time_entries set project_id = 'p2'`))).toBe('23503');
    expect(await refusal(database.db.execute(sql`update time_entries set user_id = 'nope'`))).toBe('23503');
    expect(await refusal(database.db.execute(sql`update time_entries set workspace_id = 'w2'`))).toBe('23503');
    await database.db.execute(sql`update time_entries set project_id = null, user_id = 'u2', minutes = 45`);
    expect(await count(sql`project_id is null and user_id = 'u2' and minutes = 45`)).toBe(1);
  });

  it('go with a deleted project, user or workspace, and only those', async () => {
    await insert([
      { workspace: 'w1', user: 'u1', project: 'p1' },
      { workspace: 'w1', user: 'u1', project: 'p1' },
      { workspace: 'w1', user: 'u1' },
      { workspace: 'w1', user: 'u2' },
      { workspace: 'w2', user: 'u1', project: 'p2' },
      { workspace: 'w2', user: 'u2' },
    ]);
    await database.db.execute(sql`delete from projects where id = 'p1'`);
    expect(await count()).toBe(4);
    expect(await count(sql`project_id = 'p1'`)).toBe(0);
    await database.db.execute(sql`delete from users where id = 'u2'`);
    expect(await count()).toBe(2);
    expect(await count(sql`user_id = 'u2'`)).toBe(0);
    await database.db.execute(sql`delete from workspaces where id = 'w2'`);
    expect(await count()).toBe(1);
    expect(await count(sql`workspace_id = 'w1' and user_id = 'u1' and project_id is null`)).toBe(1);
  });

  it('keep the key of a user, workspace or project that entries name; others may change', async () => {
    await insert([{ workspace: 'w1', user: 'u1', project: 'p1' }]);
    expect(await refusal(database.db.execute(sql`update users set id = 'u9' where id = 'u1'`))).toBe('23503');
    expect(await refusal(database.db.execute(sql`update workspaces set id = 'w9' where id = 'w1'`))).toBe('23503');
    expect(await refusal(database.db.execute(sql`update projects set id = 'p9' where id = 'p1'`))).toBe('23503');
    await database.db.execute(sql`update projects set id = 'p8' where id = 'p2'`);
    await database.db.execute(sql`update users set name = 'Ana B.' where id = 'u1'`);
    expect(await count(sql`user_id = 'u1' and project_id = 'p1'`)).toBe(1);
  });
});

/**
 * What the locks are for: without them, an entry written while its user is being deleted would
 * outlive the user. Two connections race; each waits for the other's lock, observed in
 * pg_stat_activity rather than timed.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('time entry references under concurrency (PostgreSQL)', () => {
  const clients: pg.Client[] = [];

  const pids = new Map<pg.Client, number>();

  async function client(): Promise<pg.Client> {
    const c = new pg.Client({ connectionString: testDatabaseUrl() ?? '' });
    await c.connect();
    clients.push(c);
    pids.set(c, (await c.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid);
    return c;
  }

  /**
   * Resolves once `c`'s statement (`running`) waits for a lock another connection holds, or once
   * it has finished without waiting (which the test's assertions then catch).
   */
  function waitUntilBlocked(c: pg.Client, running: Promise<unknown>, observer: pg.Client): Promise<void> {
    const pid = pids.get(c);
    let finished = false;
    const finish = () => {
      finished = true;
    };
    running.then(finish, finish);
    return new Promise((resolve, reject) => {
      const poll = () => {
        if (finished) {
          resolve();
          return;
        }
        observer
          .query<{ waiting: boolean }>(`select wait_event_type = 'Lock' as waiting from pg_stat_activity where pid = $1`, [pid])
          .then((r) => {
            if (r.rows[0]?.waiting) resolve();
            else setImmediate(poll);
          }, reject);
      };
      poll();
    });
  }

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end()));
  });

  it('a user deleted while an entry is being written takes the entry with it', async () => {
    const [writer, deleter, observer] = [await client(), await client(), await client()];
    await writer.query('begin');
    await writer.query(`insert into time_entries (id, workspace_id, user_id, start, minutes) values ('race1', 'w1', 'u2', now(), 30)`);
    const deleting = deleter.query(`delete from users where id = 'u2'`);
    await waitUntilBlocked(deleter, deleting, observer);
    await writer.query('commit');
    await deleting;
    expect(await count(sql`user_id = 'u2'`)).toBe(0);
  });

  it('an entry written while its user is being deleted is refused once the delete commits', async () => {
    const [deleter, writer, observer] = [await client(), await client(), await client()];
    await deleter.query('begin');
    await deleter.query(`delete from users where id = 'u2'`);
    const writing = writer
      .query(`insert into time_entries (id, workspace_id, user_id, start, minutes) values ('race2', 'w1', 'u2', now(), 30)`)
      .then(
        () => 'stored',
        (error: unknown) => pgErrorCode(error),
      );
    await waitUntilBlocked(writer, writing, observer);
    await deleter.query('commit');
    expect(await writing).toBe('23503');
    expect(await count(sql`user_id = 'u2'`)).toBe(0);
  });
});

/**
 * The counts ENTRY_QUOTA_PER_USER reads (time_entry_counts, migration 0021) are kept by statement
 * triggers: after any write, each (workspace, user) count equals that user's entries there.
 */
describe('time entry counts', () => {
  async function kept(): Promise<Record<string, number>> {
    const rows = rowsOf<{ k: string; n: number }>(
      await database.db.execute(sql`select workspace_id || '/' || user_id as k, entries as n from time_entry_counts where entries > 0`),
    );
    return Object.fromEntries(rows.map((r) => [r.k, r.n]));
  }
  async function actual(): Promise<Record<string, number>> {
    const rows = rowsOf<{ k: string; n: number }>(
      await database.db.execute(sql`select workspace_id || '/' || user_id as k, count(*)::int as n from time_entries group by 1`),
    );
    return Object.fromEntries(rows.map((r) => [r.k, r.n]));
  }
  async function expectKept(expected: Record<string, number>): Promise<void> {
    expect(await actual()).toEqual(expected);
    expect(await kept()).toEqual(expected);
  }

  it('follow inserts of one row and of many, across keys, in one statement each', async () => {
    await insert([{ workspace: 'w1', user: 'u1' }]);
    await insert([
      { workspace: 'w1', user: 'u1', project: 'p1' },
      { workspace: 'w1', user: 'u2' },
      { workspace: 'w2', user: 'u1' },
      { workspace: 'w2', user: 'u1', project: 'p2' },
    ]);
    await expectKept({ 'w1/u1': 2, 'w1/u2': 1, 'w2/u1': 2 });
  });

  it('follow deletes, updates that move entries between users and workspaces, and updates that move nothing', async () => {
    await insert([
      { workspace: 'w1', user: 'u1' },
      { workspace: 'w1', user: 'u1' },
      { workspace: 'w1', user: 'u2' },
      { workspace: 'w2', user: 'u2' },
    ]);
    await database.db.execute(sql`update time_entries set minutes = 45`);
    await expectKept({ 'w1/u1': 2, 'w1/u2': 1, 'w2/u2': 1 });
    // u1's entries go to u2, and u2's entry in w2 to u1 in w2: both directions in one statement.
    await database.db.execute(
      sql`update time_entries set user_id = case user_id when 'u1' then 'u2' else 'u1' end where workspace_id = 'w1' and user_id = 'u1' or workspace_id = 'w2'`,
    );
    await expectKept({ 'w1/u2': 3, 'w2/u1': 1 });
    await database.db.execute(
      sql`update time_entries set workspace_id = 'w2' where workspace_id = 'w1' and user_id = 'u2' and id = (select min(id) from time_entries where workspace_id = 'w1')`,
    );
    await expectKept({ 'w1/u2': 2, 'w2/u1': 1, 'w2/u2': 1 });
    await database.db.execute(sql`delete from time_entries where workspace_id = 'w1'`);
    await expectKept({ 'w2/u1': 1, 'w2/u2': 1 });
  });

  it('follow the cascades of deleting a project, a user and a workspace', async () => {
    await insert([
      { workspace: 'w1', user: 'u1', project: 'p1' },
      { workspace: 'w1', user: 'u1' },
      { workspace: 'w1', user: 'u2', project: 'p1' },
      { workspace: 'w2', user: 'u2' },
      { workspace: 'w2', user: 'u1' },
    ]);
    await database.db.execute(sql`delete from projects where id = 'p1'`);
    await expectKept({ 'w1/u1': 1, 'w2/u1': 1, 'w2/u2': 1 });
    await database.db.execute(sql`delete from users where id = 'u2'`);
    await expectKept({ 'w1/u1': 1, 'w2/u1': 1 });
    await database.db.execute(sql`delete from workspaces where id = 'w2'`);
    await expectKept({ 'w1/u1': 1 });
    // No count outlives its workspace or user.
    expect(rowsOf(await database.db.execute(sql`select * from time_entry_counts where workspace_id = 'w2' or user_id = 'u2'`))).toEqual([]);
  });

  it('start at 0 for every member as they join, before any entry (the single insert locks that row)', async () => {
    await database.db.execute(
      sql`insert into workspace_members (workspace_id, user_id, role) values ('w1', 'u1', 'owner'), ('w2', 'u1', 'member')`,
    );
    await database.db.execute(sql`insert into workspace_members (workspace_id, user_id, role) values ('w1', 'u2', 'member')`);
    const rows = rowsOf<{ k: string; n: number }>(
      await database.db.execute(sql`select workspace_id || '/' || user_id as k, entries as n from time_entry_counts order by 1`),
    );
    expect(rows).toEqual([
      { k: 'w1/u1', n: 0 },
      { k: 'w1/u2', n: 0 },
      { k: 'w2/u1', n: 0 },
    ]);
    await insert([{ workspace: 'w1', user: 'u2' }]);
    await expectKept({ 'w1/u2': 1 });
  });

  it('leave nothing behind when the statement that wrote entries is refused or rolled back', async () => {
    await insert([{ workspace: 'w1', user: 'u1' }]);
    expect(
      await refusal(
        insert([
          { workspace: 'w1', user: 'u1' },
          { workspace: 'nope', user: 'u1' },
        ]),
      ),
    ).toBe('23503');
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(
          sql`insert into time_entries (id, workspace_id, user_id, start, minutes) values ('rolled', 'w1', 'u1', now(), 30)`,
        );
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await expectKept({ 'w1/u1': 1 });
  });
});
