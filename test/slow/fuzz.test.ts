/**
 * Property-based fuzzing of every operation in the OpenAPI document (fast-check, fixed seed,
 * bounded runs): arbitrary path parameters, query strings, bodies and headers, valid-shaped and
 * hostile. Properties: never a 5xx; every API error is problem+json whose status matches, every
 * viewer error the viewer's HTML; a refused request changes no table; and the server is healthy
 * afterwards.
 */
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.js';
import { asksForPage } from '../../src/http/not-found.js';
import { NO_SUCH_PAGE } from '../../src/render/share-page.js';
import { ADMIN_TOKEN, buildTestApp, newUser, readOnlyToken, type TestContext } from '../helpers/test-app.js';
import { addMember, addProjectMember, newProject, newWorkspace } from '../helpers/factories.js';
import { newReport, newTemplate } from '../helpers/report-factories.js';
import { operationsOf, requestFor, type Operation, type Pools } from '../helpers/openapi-arbitraries.js';

/**
 * Runs per operation; with the fixed seed, every run fuzzes the same requests. FUZZ_RUNS and
 * FUZZ_SEED widen a run by hand (`FUZZ_RUNS=150 FUZZ_SEED=12 npx vitest run test/slow/fuzz.test.ts`).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261123;

/**
 * Columns a refused request is meant to move: the wrong-passcode counters of a link (a 401 on the
 * viewer is a refusal that counts). Tables of counters (rate limits, passcode attempts, sign-in failures) likewise.
 */
const IGNORED_COLUMNS = new Set(['shares.failed_attempts', 'shares.failed_window_started_at']);
const IGNORED_TABLES = /rate|attempt|auth_failures/;

let t: TestContext;
let pools: Pools;
let operations: Operation[];
let snapshotQuery: string;

beforeAll(async () => {
  t = await buildTestApp();
  const owner = await newUser(t, { name: 'Owner' });
  const recipient = await newUser(t, { name: 'Recipient' });
  const decoys = await Promise.all([newUser(t), newUser(t)]);
  const ws = await newWorkspace(t, owner);
  await addMember(t, ws.id, recipient, 'member', owner.token);
  for (const decoy of decoys) await addMember(t, ws.id, decoy, 'member', owner.token);
  const project = await newProject(t, ws.id, owner.token);
  await addProjectMember(t, project.id, recipient.id, owner.token);
  const client = await t.post(`/api/v1/workspaces/${ws.id}/clients`, { name: 'Client' }, owner.token);
  const entry = await t.post(
    '/api/v1/time-entries',
    { workspaceId: ws.id, projectId: project.id, start: '2026-11-02T09:00:00.000Z', minutes: 60, description: 'Work', tags: ['a'] },
    owner.token,
  );
  const templateId = await newTemplate(t);
  const report = await newReport(t, owner, [ws.id], { templateId });
  await t.post(`/api/v1/reports/${report.id}/send`, { recipientUserIds: [recipient.id], sendToSelf: true }, owner.token);
  const inbox = await t.get('/api/v1/inbox', recipient.token);
  const open = await t.post(`/api/v1/reports/${report.id}/shares`, {}, owner.token);
  const locked = await t.post(`/api/v1/reports/${report.id}/shares`, { passcode: 'open sesame' }, owner.token);
  const comment = await t.post(`/api/v1/report-contents/${report.reportContentId}/comments`, { body: 'Hi' }, recipient.token);
  const readOnly = await readOnlyToken(t, owner);

  pools = {
    ids: [
      owner.id,
      recipient.id,
      ...decoys.map((d) => d.id),
      ws.id,
      project.id,
      client.body.id,
      entry.body.id,
      templateId,
      report.id,
      report.reportContentId,
      inbox.body[0].id,
      open.body.id,
      comment.body.id,
    ],
    shareTokens: [open.body.token, locked.body.token],
    authorizations: [
      `Bearer ${ADMIN_TOKEN}`,
      `Bearer ${owner.token}`,
      `bearer ${owner.token}`,
      `Bearer ${readOnly}`,
      `Bearer ${recipient.token}`,
    ],
    brokenAuthorizations: [null, 'Bearer garbage', 'Basic dXNlcjpwYXNz', `Bearer ${'x'.repeat(600)}`, 'Bearer '],
  };

  const doc = (await t.get('/openapi.json', null)).body as Parameters<typeof operationsOf>[0];
  // Reads first, deletions last, so the data the other operations aim at lives as long as it can.
  const order = (op: Operation) => (op.method === 'GET' ? 0 : op.method === 'DELETE' ? 2 : 1);
  operations = operationsOf(doc).sort((a, b) => order(a) - order(b));

  const columns = rowsOf<{ table_name: string; column_name: string }>(
    await t.database.db.execute(
      sql`select table_name, column_name from information_schema.columns where table_schema = 'public' order by table_name, ordinal_position`,
    ),
  );
  const byTable = new Map<string, string[]>();
  for (const { table_name: table, column_name: column } of columns) {
    if (IGNORED_TABLES.test(table) || IGNORED_COLUMNS.has(`${table}.${column}`)) continue;
    byTable.set(table, [...(byTable.get(table) ?? []), `"${column}"`]);
  }
  snapshotQuery = [...byTable]
    .map(
      ([table, cols]) =>
        `select '${table}' as name, count(*)::int as rows, md5(coalesce(string_agg(x::text, ',' order by x::text), '')) as digest ` +
        `from (select ${cols.join(', ')} from "${table}") x`,
    )
    .join(' union all ');
}, 120_000);
afterAll(() => t.close());

async function snapshot(): Promise<string> {
  const rows = rowsOf<{ name: string; rows: number; digest: string }>(await t.database.db.execute(sql.raw(snapshotQuery)));
  return rows.map((r) => `${r.name}:${r.rows}:${r.digest}`).join('\n');
}

describe('fuzzing every operation of the OpenAPI document', () => {
  it('never answers 5xx, answers errors in the right shape, and changes nothing when it refuses', async () => {
    expect(operations.length).toBeGreaterThan(50);
    let requests = 0;
    const statuses = new Map<number, number>();
    let before = await snapshot();
    for (const op of operations) {
      await fc.assert(
        fc.asyncProperty(requestFor(op, pools), async (req) => {
          const res = await t.app.inject({
            method: req.method as 'GET',
            url: req.url,
            headers: req.headers,
            ...(req.payload !== undefined ? { payload: req.payload } : {}),
          });
          requests += 1;
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          const what = `${req.method} ${req.url} -> ${res.statusCode}`;
          expect(res.statusCode, what).toBeLessThan(500);
          const type = String(res.headers['content-type'] ?? '');
          if (res.statusCode >= 400) {
            // The URL as the server sees it: dot segments resolved (`/share/..` is `/`). The public
            // pages (the viewer, mail's unsubscribe links) answer in HTML, as does an address no
            // route serves outside /api to a browser (docs/api.md).
            const path = new URL(req.url, 'http://chronicle.test').pathname;
            const browserAtNoRoute =
              res.statusCode === 404 &&
              !/^\/api(\/|$)/.test(path) &&
              (req.method === 'GET' || req.method === 'HEAD') &&
              asksForPage(req.headers.accept);
            if (path.startsWith('/share/') || path.startsWith('/mail/')) {
              expect(type, what).toMatch(/^text\/html/);
            } else if (browserAtNoRoute && type.startsWith('text/html')) {
              expect(res.body, what).toBe(req.method === 'HEAD' ? '' : NO_SUCH_PAGE);
            } else {
              expect(type, what).toMatch(/^application\/problem\+json/);
              const problem = JSON.parse(res.body) as { type: unknown; title: unknown; status: unknown; detail: unknown };
              expect(problem.status, what).toBe(res.statusCode);
              expect(
                typeof problem.type === 'string' && typeof problem.title === 'string' && typeof problem.detail === 'string',
                what,
              ).toBe(true);
            }
          }
          const after = await snapshot();
          if (res.statusCode >= 400) expect(after, `${what}: a refused request changed the data`).toBe(before);
          before = after;
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    }
    console.log(
      `fuzz: ${requests} requests over ${operations.length} operations; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );
  }, 600_000);

  it('leaves the server healthy', async () => {
    expect((await t.get('/healthz', null)).status).toBe(200);
    expect((await t.get('/readyz', null)).status).toBe(200);
    const user = await newUser(t);
    const ws = await newWorkspace(t, user);
    const report = await newReport(t, user, [ws.id]);
    const share = await t.post(`/api/v1/reports/${report.id}/shares`, {}, user.token);
    expect(share.status).toBe(201);
    const page = await t.app.inject({ method: 'GET', url: `/share/${share.body.token}` });
    expect(page.statusCode).toBe(200);
  });
});
