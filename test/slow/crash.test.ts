/**
 * Crash safety: the real server under a write load (reports, edits, sends, links, page views,
 * comments, reactions) is killed with SIGKILL while requests are in flight, then started again on
 * the same data. Every write it acknowledged with a 2xx is there (every page it served is counted),
 * and nothing is half-made: each report's
 * versions are 1..version with its current version pointing at the last, no version or link
 * without its report, no send without deliveries, and the counts lie between what was
 * acknowledged and what was attempted.
 *
 * On the embedded engine (a PGlite data directory) in the default run; on PostgreSQL (a database
 * of its own on the test server) when TEST_DATABASE_URL is set.
 *
 * A scheduled report's run-now is acknowledged (202) before the kill and its job is still waiting
 * then (the first process works no jobs: JOB_WORKER=false): the app started again on
 * the data (a new connection to the database, its own job engine) works it, exactly once: one
 * run, one new version, one delivery. A second case kills the process in the middle of a run (its
 * render of 5,000 entries under way): nothing of it is there, and the run, taken over once its
 * attempt has gone silent (the clock moved on), makes one version and one send.
 * A third kills the process while it sends a send's mail, with one message in the SMTP server's
 * hands: afterwards two apps on the same data take over what was left, and the SMTP server has
 * accepted every message exactly once. A fourth (the embedded engine only) kills it in the middle
 * of an upkeep pass (src/db/embedded-upkeep.ts): every acknowledged entry is there afterwards,
 * and the engine writes and keeps itself as before.
 */
import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseOptions } from '../../src/db/database.js';
import { rowsOf } from '../../src/db/rows.js';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/http/types.js';
import { RUN_STALE_MS } from '../../src/modules/schedules/schedule-runner.js';
import { MAIL_STALE_MS } from '../../src/modules/mail/outbox.js';
import { testConfig } from '../helpers/test-app.js';
import { freePort, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { startSmtp } from '../helpers/smtp.js';
import { dataDirFromImage } from '../helpers/pglite-image.js';

const ADMIN = 'crash-test-bootstrap-token-0123456789abcdef';
const SHARE_KEY = Buffer.alloc(32, 3).toString('base64');
const WORKERS = 6;
/** Acknowledged writes after which the process is killed (the others are still in flight then). */
const KILL_AFTER = 60;

const pgBase = process.env.TEST_DATABASE_URL;
let options: DatabaseOptions;
let cleanup: () => Promise<void> = async () => {};

beforeAll(async () => {
  if (pgBase) {
    const name = `chronicle_test_crash_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: pgBase });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const url = new URL(pgBase);
    url.pathname = `/${name}`;
    options = { databaseUrl: url.toString(), dataDir: null };
    cleanup = async () => {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    };
  } else {
    const dataDir = dataDirFromImage('migrated', 'chronicle-crash-');
    options = { databaseUrl: null, dataDir };
    cleanup = async () => {
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
});
afterAll(() => cleanup());

async function start(env: NodeJS.ProcessEnv = {}): Promise<{ server: ServerProcess; base: string }> {
  const port = await freePort();
  const server = startServerProcess({
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    BOOTSTRAP_ADMIN_TOKEN: ADMIN,
    SHARE_KEY,
    DATABASE_URL: options.databaseUrl ?? '',
    DATA_DIR: options.dataDir ?? '',
    PASSCODE_PBKDF2_ITERATIONS: '100000',
    // This test is about durability: on a busy machine the overload refusal (503) would answer
    // writes the test means to acknowledge.
    OVERLOAD_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  });
  await server.waitFor('Server listening');
  return { server, base: `http://127.0.0.1:${port}` };
}

function client(base: string) {
  return async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
  };
}

/** Reads from an app in this process, answered as `client` answers. */
function injected(app: App) {
  return async (method: 'GET', path: string, token: string) => {
    const res = await app.inject({ method, url: path, headers: { authorization: `Bearer ${token}` } });
    return { status: res.statusCode, body: String(res.headers['content-type']).includes('json') ? res.json() : res.body };
  };
}

interface Acked {
  reports: Map<string, number>; // id -> highest acknowledged version
  sends: { reportId: string; id: string }[];
  shares: { reportId: string; id: string }[];
  /** Page views answered 200, per link id: a view is answered only once counted. */
  views: Map<string, number>;
  comments: { contentId: string; id: string }[];
  reactions: { contentId: string; commentId: string; emoji: string }[];
}

describe(`SIGKILL under write load (${pgBase ? 'PostgreSQL' : 'PGlite data directory'})`, () => {
  it('keeps every acknowledged write and nothing half-made', { timeout: 300_000 }, async () => {
    // This process works no jobs (JOB_WORKER=false): the run-now it acknowledges is still waiting when it dies.
    const first = await start({ JOB_WORKER: 'false' });
    const call = client(first.base);
    const owner = await call('POST', '/api/v1/users', ADMIN, { name: 'Owner', email: 'owner@example.com' });
    const recipient = await call('POST', '/api/v1/users', ADMIN, { name: 'Recipient', email: 'recipient@example.com' });
    const ownerToken = (await call('POST', `/api/v1/users/${owner.body.id}/tokens`, ADMIN, { scopes: ['read', 'write'] })).body.token;
    const ws = await call('POST', '/api/v1/workspaces', ownerToken, { name: 'Crash' });
    await call('PUT', `/api/v1/workspaces/${ws.body.id}/members/${recipient.body.id}`, ownerToken, { role: 'member' });
    for (let i = 0; i < 20; i++) {
      const entry = { workspaceId: ws.body.id, start: `2026-11-0${(i % 9) + 1}T09:00:00.000Z`, minutes: 10 + i, description: `e${i}` };
      expect((await call('POST', '/api/v1/time-entries', ownerToken, entry)).status).toBe(201);
    }
    const templates = await call('GET', '/api/v1/templates', ownerToken);
    const templateId = (templates.body as { id: string }[])[0]!.id;
    const filters = { workspaceIds: [ws.body.id], dateRange: { from: '2026-11-01', to: '2026-11-30' } };

    // A scheduled report whose run-now is acknowledged, its job not yet taken when the process dies.
    const scheduled = await call('POST', '/api/v1/reports', ownerToken, { name: 'Scheduled', templateId, filters });
    const schedulePath = `/api/v1/reports/${scheduled.body.id}/schedule`;
    const weekly = { frequency: 'weekly', weekday: 'monday', time: '09:00', recipientUserIds: [recipient.body.id] };
    expect((await call('PUT', schedulePath, ownerToken, weekly)).status).toBe(201);
    const runNow = await call('POST', `${schedulePath}/run-now`, ownerToken, {});
    expect(runNow.status).toBe(202);

    const acked: Acked = { reports: new Map(), sends: [], shares: [], views: new Map(), comments: [], reactions: [] };
    let acks = 0;
    let attemptedReports = 0;
    let killed = false;
    /** Read through a call: other workers set it while this one awaits. */
    const isKilled = () => killed;
    const ack = () => {
      acks += 1;
      if (acks >= KILL_AFTER && !killed) {
        killed = true;
        first.server.child.kill('SIGKILL');
      }
    };
    /** One write; false once the server is gone (the loop then stops). */
    const write = async (method: string, path: string, body: unknown, onAck: (res: { status: number; body: any }) => void) => {
      if (killed) return false;
      let res;
      try {
        res = await call(method, path, ownerToken, body);
      } catch {
        return false;
      }
      if (res.status >= 200 && res.status < 300) {
        onAck(res);
        ack();
        return true;
      }
      if (isKilled()) return false;
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    };

    const worker = async (w: number) => {
      for (let round = 0; !killed; round++) {
        let report: { id: string; reportContentId: string } | undefined;
        attemptedReports += 1;
        const body = { name: `W${w} R${round}`, templateId, filters };
        if (!(await write('POST', '/api/v1/reports', body, (res) => ((report = res.body), acked.reports.set(res.body.id, 1))))) return;
        const id = report!.id;
        for (let e = 0; e < 2; e++) {
          const edit = { ...body, name: `W${w} R${round} E${e}` };
          const ok = await write('PATCH', `/api/v1/reports/${id}`, edit, (res) => {
            acked.reports.set(id, Math.max(acked.reports.get(id) ?? 0, res.body.version as number));
            report = res.body;
          });
          if (!ok) return;
        }
        const contentId = report!.reportContentId;
        const sent = await write('POST', `/api/v1/reports/${id}/send`, { recipientUserIds: [recipient.body.id] }, (res) =>
          acked.sends.push({ reportId: id, id: res.body.id }),
        );
        if (!sent) return;
        let share = { id: '', token: '' };
        const minted = await write('POST', `/api/v1/reports/${id}/shares`, {}, (res) => {
          share = res.body;
          acked.shares.push({ reportId: id, id: share.id });
        });
        if (!minted) return;
        try {
          const page = await fetch(`${first.base}/share/${share.token}`);
          await page.text();
          if (page.status === 200) acked.views.set(share.id, 1);
        } catch {
          return;
        }
        let commentId = '';
        const commented = await write('POST', `/api/v1/report-contents/${contentId}/comments`, { body: `c${w}/${round}` }, (res) => {
          commentId = res.body.id;
          acked.comments.push({ contentId, id: commentId });
        });
        if (!commented) return;
        const emoji = ['+1', 'heart', 'rocket'][round % 3]!;
        const reacted = await write('PUT', `/api/v1/report-contents/${contentId}/comments/${commentId}/reactions`, { emoji }, () =>
          acked.reactions.push({ contentId, commentId, emoji }),
        );
        if (!reacted) return;
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
    expect(await first.server.exited).toBeNull();
    expect(acks).toBeGreaterThanOrEqual(KILL_AFTER);

    // Start again on the same data, as a new process does: its own connection to the database and
    // an app with the job engine running. The run was acknowledged and still waiting when the
    // process died; every acknowledged write is there.
    const database = await openDatabase(options);
    try {
      const waiting = rowsOf<{ status: string }>(await database.db.execute(sql`select status from schedule_runs`));
      expect(waiting).toEqual([{ status: 'queued' }]);
      const config = testConfig({ ...options, shareKey: Buffer.from(SHARE_KEY, 'base64'), jobPollSeconds: 0.5 });
      const second = await buildApp({ config, database, logger: false, jobs: true });
      try {
        const again = injected(second);
        // The acknowledged run is worked by the new process, once.
        let runs: { id: string; status: string; version: number | null; delivered: number }[] = [];
        while (!runs.some((r) => r.status !== 'queued' && r.status !== 'running')) {
          runs = (await again('GET', `${schedulePath}/runs`, ownerToken)).body;
          if (runs[0]?.status === 'queued' || runs[0]?.status === 'running') await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(runs).toEqual([expect.objectContaining({ id: runNow.body.id, status: 'succeeded', version: 2, delivered: 1 })]);
        expect((await again('GET', `/api/v1/reports/${scheduled.body.id}`, ownerToken)).body.version).toBe(2);
        for (const [id, version] of acked.reports) {
          const res = await again('GET', `/api/v1/reports/${id}`, ownerToken);
          expect(res.status, `report ${id}`).toBe(200);
          expect(res.body.version).toBeGreaterThanOrEqual(version);
        }
        for (const { reportId, id } of acked.sends) {
          const sends = await again('GET', `/api/v1/reports/${reportId}/sends`, ownerToken);
          expect((sends.body as { id: string }[]).map((s) => s.id)).toContain(id);
        }
        for (const { reportId, id } of acked.shares) {
          const shares = (await again('GET', `/api/v1/reports/${reportId}/shares`, ownerToken)).body as { id: string; viewCount: number }[];
          const share = shares.find((s) => s.id === id);
          expect(share, `link ${id}`).toBeDefined();
          expect(share!.viewCount).toBeGreaterThanOrEqual(acked.views.get(id) ?? 0);
        }
        const threads = new Map<string, any>();
        for (const { contentId } of acked.comments) {
          threads.set(contentId, (await again('GET', `/api/v1/report-contents/${contentId}/discussion`, ownerToken)).body);
        }
        for (const { contentId, id } of acked.comments) {
          expect(threads.get(contentId).comments.map((c: { id: string }) => c.id)).toContain(id);
        }
        for (const { contentId, commentId, emoji } of acked.reactions) {
          const comment = threads.get(contentId).comments.find((c: { id: string }) => c.id === commentId);
          expect(comment.reactions).toContainEqual(expect.objectContaining({ emoji, reactedByMe: true, count: 1 }));
        }
      } finally {
        await second.close();
      }

      // Nothing half-made, read straight from the database.
      const query = async <T>(text: string) => rowsOf<T>(await database.db.execute(sql.raw(text)));
      expect(
        await query(`select r.id from reports r left join report_contents c
                       on c.id = r.current_content_id and c.report_id = r.id and c.version = r.version where c.id is null`),
      ).toEqual([]);
      expect(
        await query(`select r.id from reports r join report_contents c on c.report_id = r.id
                     group by r.id, r.version having count(*) <> r.version or min(c.version) <> 1 or max(c.version) <> r.version`),
      ).toEqual([]);
      expect(await query(`select c.id from report_contents c where not exists (select 1 from reports r where r.id = c.report_id)`)).toEqual(
        [],
      );
      // Every version keeps the rows it was rendered from: written in its transaction, or not at all.
      expect(
        await query(`select c.id from report_contents c where not exists (select 1 from report_datasets d where d.content_id = c.id)`),
      ).toEqual([]);
      expect(await query(`select s.id from sends s where not exists (select 1 from deliveries d where d.send_id = s.id)`)).toEqual([]);
      expect(
        await query(`select s.id from shares s where not exists (select 1 from report_contents c where c.id = s.report_content_id)`),
      ).toEqual([]);
      const [counts] = await query<{ reports: number; comments: number }>(
        `select (select count(*)::int from reports) as reports, (select count(*)::int from comments) as comments`,
      );
      expect(counts!.reports).toBeGreaterThanOrEqual(acked.reports.size);
      // The load's reports and the scheduled one made before it.
      expect(counts!.reports).toBeLessThanOrEqual(attemptedReports + 1);
      expect(counts!.comments).toBeGreaterThanOrEqual(acked.comments.length);
      console.log(
        `crash (${pgBase ? 'PostgreSQL' : 'PGlite'}): killed after ${acks} acknowledged writes (${acked.reports.size} reports, ` +
          `${acked.sends.length} sends, ${acked.shares.length} links, ${acked.views.size} page views, ${acked.comments.length} comments, ${acked.reactions.length} reactions); ` +
          'all there after the restart, nothing half-made',
      );
    } finally {
      await database.close();
    }
  });

  it('kills a process in the middle of a scheduled run: nothing half-made, then the run completes once', { timeout: 300_000 }, async () => {
    let first = await start({ JOB_POLL_SECONDS: '0.5' });
    let call = client(first.base);
    const owner = await call('POST', '/api/v1/users', ADMIN, { name: 'Runner', email: 'runner@example.com' });
    const reader = await call('POST', '/api/v1/users', ADMIN, { name: 'Reader', email: 'reader@example.com' });
    const token = (await call('POST', `/api/v1/users/${owner.body.id}/tokens`, ADMIN, { scopes: ['read', 'write'] })).body.token;
    const ws = await call('POST', '/api/v1/workspaces', token, { name: 'Runs' });
    await call('PUT', `/api/v1/workspaces/${ws.body.id}/members/${reader.body.id}`, token, { role: 'member' });
    // Enough entries that a run's render takes a while: the process is killed while it is under way.
    for (let b = 0; b < 5; b++) {
      const entries = Array.from({ length: 1000 }, (_, i) => ({
        workspaceId: ws.body.id,
        start: `2026-10-${String((i % 28) + 1).padStart(2, '0')}T${String(8 + (i % 10)).padStart(2, '0')}:00:00.000Z`,
        minutes: 5 + (i % 50),
        description: `Batch ${b} entry ${i}`,
        tags: [`t${i % 7}`],
      }));
      expect((await call('POST', '/api/v1/time-entries/batch', token, { entries })).status).toBe(201);
    }
    const templates = (await call('GET', '/api/v1/templates', token)).body as { id: string; name: string }[];
    const timesheet = templates.find((t) => t.name === 'Timesheet')!.id;
    const filters = { workspaceIds: [ws.body.id], dateRange: { from: '2026-10-01', to: '2026-10-31' } };
    const report = (await call('POST', '/api/v1/reports', token, { name: 'Big month', templateId: timesheet, filters })).body;
    const schedulePath = `/api/v1/reports/${report.id}/schedule`;
    const weekly = { frequency: 'weekly', weekday: 'monday', time: '09:00', recipientUserIds: [reader.body.id] };
    expect((await call('PUT', schedulePath, token, weekly)).status).toBe(201);

    // Run now until a run is seen under way (one that finishes first is simply a run like any other).
    type Run = { id: string; status: string; version: number | null; delivered: number };
    /** A run's status as the database holds it, read while no process has the data open. */
    const storedStatus = async (runId: string) => {
      const database = await openDatabase(options);
      try {
        const rows = rowsOf<{ status: string }>(await database.db.execute(sql`select status from schedule_runs where id = ${runId}`));
        return rows[0]?.status;
      } finally {
        await database.close();
      }
    };
    let running: Run | undefined;
    for (let attempt = 0; attempt < 10 && !running; attempt++) {
      const queued = await call('POST', `${schedulePath}/run-now`, token, {});
      expect(queued.status).toBe(202);
      for (;;) {
        const run = ((await call('GET', `${schedulePath}/runs`, token)).body as Run[]).find((r) => r.id === queued.body.id)!;
        if (run.status === 'running') {
          first.server.child.kill('SIGKILL');
          expect(await first.server.exited).toBeNull();
          // The kill lands a moment after the status was read: a run that committed in that moment
          // finished like any other, and the next attempt starts a process again.
          if ((await storedStatus(run.id)) === 'running') running = run;
          else {
            first = await start({ JOB_POLL_SECONDS: '0.5' });
            call = client(first.base);
          }
          break;
        }
        if (run.status !== 'queued') break;
      }
    }
    expect(running, 'a run seen under way').toBeDefined();

    const database = await openDatabase(options);
    try {
      const query = async <T>(text: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(text));
      const [before] = await query<{ version: number; sends: number; status: string }>(
        sql`select r.version, (select count(*)::int from sends s where s.report_id = r.id) as sends,
                   (select status from schedule_runs where id = ${running!.id}) as status
              from reports r where r.id = ${report.id}`,
      );
      // Nothing of the run's work is there: no version, no send; the run is still marked as running.
      expect(before!.status).toBe('running');
      const succeeded = (
        await query<{ n: number }>(
          sql`select count(*)::int as n from schedule_runs where report_id = ${report.id} and status = 'succeeded'`,
        )
      )[0]!.n;
      expect(before!.version).toBe(1 + succeeded);
      expect(before!.sends).toBe(succeeded);

      // Another process, once the attempt has gone silent for longer than a run may take, takes it over.
      const later = { now: () => new Date(Date.now() + RUN_STALE_MS + 60_000) };
      const shareKey = Buffer.from(SHARE_KEY, 'base64');
      const app = await buildApp({ config: testConfig({ ...options, shareKey }), database, clock: later, logger: false });
      try {
        await app.chronicle.scheduler.execute(running!.id);
        await app.chronicle.scheduler.execute(running!.id);
      } finally {
        await app.close();
      }
      const [after] = await query<{ version: number; sends: number; status: string; runVersion: number; deliveries: number }>(
        sql`select r.version, (select count(*)::int from sends s where s.report_id = r.id) as sends,
                   sr.status, sr.version as "runVersion",
                   (select count(*)::int from deliveries d where d.send_id = sr.send_id) as deliveries
              from reports r join schedule_runs sr on sr.id = ${running!.id} where r.id = ${report.id}`,
      );
      console.log(
        `crash (${pgBase ? 'PostgreSQL' : 'PGlite'}): killed during run-now ${succeeded + 1} (5,000 entries), ` +
          'no version or send of it after the kill; taken over once, one version and one send',
      );
      expect(after).toEqual({
        version: before!.version + 1,
        sends: before!.sends + 1,
        status: 'succeeded',
        runVersion: before!.version + 1,
        deliveries: 1,
      });
    } finally {
      await database.close();
    }
  });

  it('kills a process while it sends mail: afterwards every message is accepted exactly once', { timeout: 300_000 }, async () => {
    const smtp = await startSmtp();
    const teammates = 30;
    const first = await start({ JOB_POLL_SECONDS: '0.5', SCHEDULE_TICK_SECONDS: '1', SMTP_URL: smtp.url });
    try {
      const call = client(first.base);
      const owner = await call('POST', '/api/v1/users', ADMIN, { name: 'Mailer', email: 'mailer@example.com' });
      const token = (await call('POST', `/api/v1/users/${owner.body.id}/tokens`, ADMIN, { scopes: ['read', 'write'] })).body.token;
      const ws = await call('POST', '/api/v1/workspaces', token, { name: 'Mail' });
      const ids: string[] = [];
      for (let i = 0; i < teammates; i++) {
        const user = await call('POST', '/api/v1/users', ADMIN, { name: `Teammate ${i}`, email: `teammate${i}@example.com` });
        await call('PUT', `/api/v1/workspaces/${ws.body.id}/members/${user.body.id}`, token, { role: 'member' });
        ids.push(user.body.id);
      }
      const templates = (await call('GET', '/api/v1/templates', token)).body as { id: string; name: string }[];
      const filters = { workspaceIds: [ws.body.id], dateRange: { from: '2026-10-01', to: '2026-10-31' } };
      const report = (await call('POST', '/api/v1/reports', token, { name: 'Mailed', templateId: templates[0]!.id, filters })).body;
      // The tenth message is held by the SMTP server until the process is dead: it was in flight.
      const held = smtp.hold(10, /^teammate\d+@example\.com$/);
      const sent = await call('POST', `/api/v1/reports/${report.id}/send`, token, { recipientUserIds: ids });
      expect(sent.status).toBe(201);
      await held.reached;
      first.server.child.kill('SIGKILL');
      expect(await first.server.exited).toBeNull();
      held.release();
      expect(smtp.received.filter((m) => /^teammate\d+@example\.com$/.test(m.to))).toHaveLength(9);

      const database = await openDatabase(options);
      try {
        const statuses = async () =>
          rowsOf<{ status: string; n: number }>(
            await database.db.execute(
              sql`select status, count(*)::int as n from mail_messages where send_id = ${sent.body.id} group by status order by status`,
            ),
          );
        // Nine sent, the one in flight still claimed by the dead attempt, the rest waiting.
        expect(await statuses()).toEqual([
          { status: 'queued', n: teammates - 10 },
          { status: 'sending', n: 1 },
          { status: 'sent', n: 9 },
        ]);
        // Two apps on the same data, once the dead attempt has gone silent, share what is left.
        const later = { now: () => new Date(Date.now() + MAIL_STALE_MS + 60_000) };
        const config = testConfig({ ...options, shareKey: Buffer.from(SHARE_KEY, 'base64'), smtpUrl: smtp.url });
        const apps = await Promise.all([0, 1].map(() => buildApp({ config, database, clock: later, logger: false })));
        try {
          await Promise.all(apps.map((app) => app.chronicle.mailer.drain()));
          await Promise.all(apps.map((app) => app.chronicle.mailer.drain()));
        } finally {
          for (const app of apps) await app.close();
        }
        expect(await statuses()).toEqual([{ status: 'sent', n: teammates }]);
        // (The apps also sent what the earlier cases left queued; only this send's mail is counted.)
        const ours = smtp.received.filter((m) => /^teammate\d+@example\.com$/.test(m.to));
        const accepted = ours.map((m) => m.parsed.messageId);
        expect(accepted).toHaveLength(teammates);
        expect(new Set(accepted).size).toBe(teammates);
        expect(new Set(ours.map((m) => m.to)).size).toBe(teammates);
        console.log(`crash (${pgBase ? 'PostgreSQL' : 'PGlite'}): killed with message 10 of ${teammates} in flight; each accepted once`);
      } finally {
        await database.close();
      }
    } finally {
      first.server.child.kill('SIGKILL');
      await smtp.close();
    }
  });
  it.skipIf(Boolean(pgBase))(
    'kills a process in the middle of the embedded engine’s upkeep: every acknowledged entry is there, and upkeep goes on',
    { timeout: 300_000 },
    async () => {
      const dataDir = dataDirFromImage('migrated', 'chronicle-upkeep-crash-');
      const env = { DATA_DIR: dataDir, EMBEDDED_UPKEEP_SECONDS: '3', LOG_LEVEL: 'debug' };
      const upkeptEntries = /"table":"public\.time_entries".*"msg":"embedded database upkeep"/;
      let token = '';
      let ws = '';
      const batches = async (call: ReturnType<typeof client>, count: number, from: number) => {
        for (let b = 0; b < count; b++) {
          const entries = Array.from({ length: 1000 }, (_, i) => ({
            workspaceId: ws,
            start: new Date(Date.UTC(2026, 0, 1) + (from + b * 1000 + i) * 3_600_000).toISOString(),
            minutes: 30,
          }));
          expect((await call('POST', '/api/v1/time-entries/batch', token, { entries })).status).toBe(201);
        }
      };
      const total = async (base: string) => {
        const res = await fetch(`${base}/api/v1/time-entries?workspaceId=${ws}&limit=1`, { headers: { authorization: `Bearer ${token}` } });
        expect(res.status).toBe(200);
        return Number(res.headers.get('x-total-count'));
      };
      try {
        const first = await start(env);
        const call = client(first.base);
        const owner = await call('POST', '/api/v1/users', ADMIN, { name: 'Upkept', email: 'upkept@example.com' });
        token = (await call('POST', `/api/v1/users/${owner.body.id}/tokens`, ADMIN, { scopes: ['read', 'write'] })).body.token;
        ws = (await call('POST', '/api/v1/workspaces', token, { name: 'Upkeep' })).body.id;
        await batches(call, 3, 0);
        // The first pass, 3 s after start-up, has the catalogs the migrations left and (once the
        // batches are in) the entries to keep, eight statements: the process dies the moment the
        // first is done, with the next under way.
        await first.server.waitFor(/"msg":"embedded database upkeep"/);
        first.server.child.kill('SIGKILL');
        expect(await first.server.exited).toBeNull();

        const second = await start(env);
        try {
          expect(await total(second.base)).toBe(3000);
          // The engine writes and keeps itself on the data the crash left.
          await batches(client(second.base), 2, 3000);
          await second.server.waitFor(upkeptEntries);
          expect(await total(second.base)).toBe(5000);
          expect(second.server.output()).not.toMatch(/embedded database upkeep failed/);
        } finally {
          second.server.child.kill('SIGKILL');
          await second.server.exited;
        }
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
