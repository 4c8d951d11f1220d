/**
 * Every JSON operation of the OpenAPI document gets its worst bodies (docs/api.md "Conventions"):
 * each list with 200,000 items of the wrong type, each field nested 10,000 levels deep, each object
 * with 50,000 unknown properties, and every text at its longest legal length. Each answer is a 4xx
 * (never a 5xx) listing at most MAX_FIELD_ERRORS errors, a few kilobytes at most. Nothing here is
 * timed: the sizes and counts are what would grow if validation stopped being linear.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FIELD_ERRORS } from '../../src/lib/errors.js';
import { MAX_JSON_DEPTH } from '../../src/http/json-body.js';
import { ADMIN_TOKEN, buildTestApp, newUser, type TestContext } from '../helpers/test-app.js';
import { addMember, addProjectMember, newProject, newWorkspace } from '../helpers/factories.js';
import { newReport, newTemplate } from '../helpers/report-factories.js';
import { operationsOf, type Operation } from '../helpers/openapi-arbitraries.js';

type Schema = Record<string, any>;

/** The largest answer to a refused body: 20 errors with their paths and messages fit well within. */
const MAX_ANSWER_BYTES = 8 * 1024;
/** Bodies stay under the 1 MiB limit, so that validation, not the 413, answers them. */
const BODY_LIMIT = 1024 * 1024;
const HUGE_LIST = 200_000;
const UNKNOWN_PROPERTIES = 50_000;
const DEEP = 10_000;

let t: TestContext;
let operations: Operation[];
/** A real id for each kind of path parameter and id field. */
let ids: Record<string, string>;
/** The owner of the seeded data: the instance admin is no member of it, so rules refuse it early. */
let ownerToken: string;

beforeAll(async () => {
  t = await buildTestApp();
  const owner = await newUser(t, { name: 'Owner' });
  const recipient = await newUser(t, { name: 'Recipient' });
  ownerToken = owner.token;
  const ws = await newWorkspace(t, owner);
  await addMember(t, ws.id, recipient, 'member', owner.token);
  const project = await newProject(t, ws.id, owner.token);
  await addProjectMember(t, project.id, recipient.id, owner.token);
  const client = await t.post(`/api/v1/workspaces/${ws.id}/clients`, { name: 'Client' }, owner.token);
  const entry = await t.post(
    '/api/v1/time-entries',
    { workspaceId: ws.id, projectId: project.id, start: '2026-11-02T09:00:00.000Z', minutes: 60, description: 'Work' },
    owner.token,
  );
  const templateId = await newTemplate(t);
  const report = await newReport(t, owner, [ws.id], { templateId });
  await t.post(`/api/v1/reports/${report.id}/send`, { recipientUserIds: [recipient.id] }, owner.token);
  const inbox = await t.get('/api/v1/inbox', recipient.token);
  const share = await t.post(`/api/v1/reports/${report.id}/shares`, {}, owner.token);
  const comment = await t.post(`/api/v1/report-contents/${report.reportContentId}/comments`, { body: 'Hi' }, recipient.token);
  const webhook = await t.post(
    `/api/v1/workspaces/${ws.id}/webhooks`,
    { url: 'https://hooks.example.com/chronicle', events: ['report.sent'] },
    owner.token,
  );
  ids = {
    users: owner.id,
    userId: recipient.id,
    workspaces: ws.id,
    workspaceId: ws.id,
    projects: project.id,
    projectId: project.id,
    clients: client.body.id,
    'time-entries': entry.body.id,
    templates: templateId,
    templateId,
    reports: report.id,
    'report-contents': report.reportContentId,
    inbox: inbox.body[0].id,
    shares: share.body.id,
    commentId: comment.body.id,
    webhooks: webhook.body.id,
  };
  const doc = (await t.get('/openapi.json', null)).body as Parameters<typeof operationsOf>[0];
  operations = operationsOf(doc).filter((op) => op.body !== null);
}, 120_000);
afterAll(() => t.close());

/** The URL of an operation with real ids: `{id}` is named by the segment before it. */
function urlOf(op: Operation): string {
  return op.path.replace(/([^/]+)\/\{([^}]+)\}/g, (_, collection: string, name: string) => {
    const id = name === 'id' ? ids[collection] : ids[name];
    if (!id) throw new Error(`no id for ${name} in ${op.path}`);
    return `${collection}/${id}`;
  });
}

/** Where a value may go in a body: a JSON pointer and the schema that holds there. */
interface Slot {
  path: string[];
  schema: Schema;
}

/** The object form of a union (null, a literal or a string are not where things nest). */
function structured(schema: Schema): Schema {
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (!branches) return schema;
  return branches.find((b) => b.type === 'object' || b.type === 'array') ?? branches.find((b) => b.type !== 'null') ?? schema;
}

/** Every property of the body (through unions, and into the first item of lists), outermost first. */
function slotsOf(schema: Schema, path: string[] = []): Slot[] {
  const s = structured(schema);
  const here: Slot[] = [{ path, schema: s }];
  if (s.type === 'array' && s.items) return [...here, ...slotsOf(s.items as Schema, [...path, '0'])];
  if (s.type !== 'object') return here;
  const properties = Object.entries((s.properties ?? {}) as Record<string, Schema>);
  return [...here, ...properties.flatMap(([name, sub]) => slotsOf(sub, [...path, name]))];
}

/** A body in which `path` holds `value`, and the lists above it one item each. */
function bodyWith(path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  return head === '0' ? [bodyWith(rest, value)] : { [head as string]: bodyWith(rest, value) };
}

/** An item no list in the document takes: a number where text or objects go, text where numbers go. */
function wrongItemFor(items: Schema): string {
  const s = structured(items);
  return s.type === 'number' || s.type === 'integer' ? '"x"' : '0';
}

const pointerOf = (path: string[]) => path.map((p) => `/${p}`).join('');

interface Answer {
  status: number;
  bytes: number;
  problem: { detail: string; errors?: { path: string; message: string }[]; omittedErrors?: number };
}

async function send(op: Operation, payload: string, token = ADMIN_TOKEN): Promise<Answer> {
  expect(payload.length, `${op.method} ${op.path}: the body must stay under the limit`).toBeLessThan(BODY_LIMIT);
  const res = await t.app.inject({
    method: op.method as 'POST',
    url: urlOf(op),
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload,
  });
  const type = String(res.headers['content-type'] ?? '');
  return {
    status: res.statusCode,
    bytes: Buffer.byteLength(res.body),
    problem: type.startsWith('application/problem+json') ? JSON.parse(res.body) : { detail: res.body.slice(0, 200) },
  };
}

/** A refused body: a 400 problem with a short list of errors and a small answer. */
function expectRefused(answer: Answer, what: string): NonNullable<Answer['problem']['errors']> {
  expect(answer.status, `${what}: ${answer.problem.detail}`).toBe(400);
  expect(answer.bytes, what).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
  const errors = answer.problem.errors ?? [];
  expect(errors.length, what).toBeLessThanOrEqual(MAX_FIELD_ERRORS);
  // A batch's errors also carry the item's index; the path and message are what is compared.
  return errors.map(({ path, message }) => ({ path, message }));
}

describe('the worst bodies of every JSON operation', () => {
  it('covers every operation that takes a JSON body', () => {
    expect(operations.length).toBeGreaterThanOrEqual(25);
    for (const op of operations) expect(slotsOf(op.body as Schema).length, `${op.method} ${op.path}`).toBeGreaterThan(1);
  });

  it(`answers each list holding ${HUGE_LIST.toLocaleString('en')} items of the wrong type with one error`, async () => {
    let lists = 0;
    for (const op of operations) {
      for (const slot of slotsOf(op.body as Schema).filter((s) => s.schema.type === 'array')) {
        lists += 1;
        const items = `[${Array.from({ length: HUGE_LIST }, () => wrongItemFor(slot.schema.items as Schema)).join(',')}]`;
        const skeleton = JSON.stringify(bodyWith(slot.path, '\u0000HOLE'));
        const what = `${op.method} ${op.path} ${pointerOf(slot.path)}`;
        const errors = expectRefused(await send(op, skeleton.replace('"\\u0000HOLE"', items)), what);
        expect(errors, what).toEqual([{ path: pointerOf(slot.path), message: `must NOT have more than ${slot.schema.maxItems} items` }]);
      }
    }
    expect(lists).toBeGreaterThanOrEqual(10);
  });

  it(`answers a field nested ${DEEP.toLocaleString('en')} levels deep with 400 naming the limit`, async () => {
    const deep = `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`;
    for (const op of operations) {
      for (const slot of slotsOf(op.body as Schema)) {
        const skeleton = JSON.stringify(bodyWith(slot.path, '\u0000HOLE'));
        const what = `${op.method} ${op.path} ${pointerOf(slot.path) || '(the body)'}`;
        const answer = await send(op, skeleton.replace('"\\u0000HOLE"', deep));
        expectRefused(answer, what);
        expect(answer.problem.detail, what).toContain(`more than ${MAX_JSON_DEPTH} levels deep`);
      }
    }
  });

  it(`answers each object with ${UNKNOWN_PROPERTIES.toLocaleString('en')} unknown properties with ${MAX_FIELD_ERRORS} errors and a count`, async () => {
    const unknown = Array.from({ length: UNKNOWN_PROPERTIES }, (_, i) => `"u${i}":0`).join(',');
    for (const op of operations) {
      for (const slot of slotsOf(op.body as Schema).filter((s) => s.schema.type === 'object')) {
        const skeleton = JSON.stringify(bodyWith(slot.path, {}));
        const what = `${op.method} ${op.path} ${pointerOf(slot.path) || '(the body)'}`;
        // The innermost `{}` of the skeleton is the object at the slot.
        const at = skeleton.lastIndexOf('{}');
        const answer = await send(op, `${skeleton.slice(0, at)}{${unknown}}${skeleton.slice(at + 2)}`);
        const errors = expectRefused(answer, what);
        expect(errors, what).toHaveLength(MAX_FIELD_ERRORS);
        expect(errors[0], what).toEqual({ path: `${pointerOf(slot.path)}/u0`, message: 'is not an allowed property' });
        expect(answer.problem.omittedErrors, what).toBe(UNKNOWN_PROPERTIES - MAX_FIELD_ERRORS);
        expect(answer.problem.detail, what).toContain(`Only the first ${MAX_FIELD_ERRORS} of 50,000 errors are listed.`);
      }
    }
  });

  it('answers a body with every text at its longest legal length without a 5xx, and a refusal stays small', async () => {
    const statuses = new Map<number, number>();
    for (const op of operations) {
      const payload = JSON.stringify(longest(op.body as Schema, ''));
      // The admin first, then the owner of the data the ids name, whom fewer rules refuse.
      for (const token of [ADMIN_TOKEN, ownerToken]) {
        const answer = await send(op, payload, token);
        const what = `${op.method} ${op.path} -> ${answer.status} ${answer.problem.detail}`;
        expect(answer.status, what).toBeLessThan(500);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status >= 400) {
          expect(answer.problem.errors?.length ?? 0, what).toBeLessThanOrEqual(MAX_FIELD_ERRORS);
          expect(answer.bytes, what).toBeLessThanOrEqual(Math.max(MAX_ANSWER_BYTES, payload.length + 1024));
        }
      }
    }
    // Some of them are taken: the longest legal texts are legal.
    expect([...statuses.keys()].some((status) => status < 300)).toBe(true);
  });

  it('leaves the server healthy', async () => {
    expect((await t.get('/healthz', null)).status).toBe(200);
    expect((await t.get('/api/v1/me')).status).toBe(200);
  });
});

describe('the other parsers', () => {
  it('reads nested brackets in a query string as a flat name: a 400 problem, never a 5xx', async () => {
    const doc = (await t.get('/openapi.json', null)).body as Parameters<typeof operationsOf>[0];
    // The public viewer answers HTML pages, never problem+json (test/api/viewer.test.ts covers its refusals).
    const reads = operationsOf(doc).filter(
      (op) => op.method === 'GET' && op.parameters.some((p) => p.in === 'query') && !op.path.startsWith('/share/'),
    );
    expect(reads.length).toBeGreaterThan(5);
    for (const op of reads) {
      const name = op.parameters.find((p) => p.in === 'query')?.name ?? '';
      for (const query of [
        `${name}${'['.repeat(DEEP)}${']'.repeat(DEEP)}=1`,
        `${name}=${'['.repeat(DEEP)}`,
        Array.from({ length: 2_000 }, (_, i) => `${name}=${i}`).join('&'),
      ]) {
        const res = await t.app.inject({
          method: 'GET',
          url: `${urlOf(op)}?${query}`,
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        const what = `GET ${op.path}?${query.slice(0, 40)}… -> ${res.statusCode}`;
        expect(res.statusCode, what).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, what).toBeLessThan(500);
        expect(Buffer.byteLength(res.body), what).toBeLessThanOrEqual(Math.max(MAX_ANSWER_BYTES, query.length + 1024));
        expect((JSON.parse(res.body) as { errors?: unknown[] }).errors?.length ?? 0, what).toBeLessThanOrEqual(MAX_FIELD_ERRORS);
      }
    }
  });

  it("gives the public viewer's form a deeply bracketed or oversized field without a 5xx", async () => {
    const share = await t.post(`/api/v1/reports/${ids.reports}/shares`, { passcode: 'open sesame' }, ownerToken);
    for (const form of [
      `passcode${'['.repeat(DEEP)}${']'.repeat(DEEP)}=x`,
      `passcode=${'['.repeat(DEEP)}`,
      Array.from({ length: 2_000 }, (_, i) => `passcode=${i}`).join('&'),
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/share/${share.body.token}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form,
      });
      expect(res.statusCode, form.slice(0, 40)).toBeLessThan(500);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
  });
});

/** A value of `schema` with every text at its maxLength (a legal value where a format is asked). */
function longest(schema: Schema, name: string): unknown {
  const s = structured(schema);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  switch (s.type) {
    case 'object':
      return Object.fromEntries(
        Object.entries((s.properties ?? {}) as Record<string, Schema>).map(([key, sub]) => [key, longest(sub, key)]),
      );
    case 'array':
      return Array.from({ length: Math.max(1, s.minItems ?? 0) }, (_, i) => longestText(s.items as Schema, name.replace(/s$/, ''), i));
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return true;
    case 'string':
      return longestText(s, name, 0);
    default:
      return null;
  }
}

function longestText(schema: Schema, name: string, index: number): unknown {
  const s = structured(schema);
  if (s.type !== 'string' || s.const !== undefined || Array.isArray(s.enum)) return longest(s, name);
  const real = ids[name.replace(/Ids?$/, 'Id')];
  if (real && index === 0) return real;
  if (s.format === 'date') return '2026-11-02';
  if (s.format === 'date-time') return '2026-11-02T09:00:00.000Z';
  if (s.format === 'email') return `${'e'.repeat(Math.max(1, Math.min(64, (s.maxLength ?? 254) - 12)))}@example.com`;
  if (s.format === 'uri') return `https://example.com/${'u'.repeat(Math.max(0, (s.maxLength ?? 2048) - 20))}`;
  if (name === 'timezone') return 'Europe/Berlin';
  // Counted after Unicode normalisation, at most 128 (docs/api.md "Share links").
  if (name === 'passcode') return 'p'.repeat(128);
  return `${index}`.padEnd(s.maxLength ?? 1000, 'x');
}
