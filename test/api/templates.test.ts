import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, expectProblem, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';
import { BUILTIN_TEMPLATES } from '../../src/render/builtin-templates.js';

let t: TestContext;
let user: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  user = await newUser(t);
});
afterAll(() => t.close());

const TEMPLATES = '/api/v1/templates';

interface Template {
  id: string;
  name: string;
  description: string;
  body: string;
  nameTemplate: string;
  noteTemplate: string;
  enabled: boolean;
  builtIn: boolean;
  createdAt: string;
  updatedAt: string;
}

let counter = 0;
async function create(fields: Record<string, unknown> = {}): Promise<Template> {
  counter += 1;
  const res = await t.post(TEMPLATES, { name: `Template ${counter}`, body: '# {{ report.name }}', ...fields });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body;
}

/** Asserts the order of docs/api.md "Conventions" over a whole list: createdAt desc, then id desc. */
function expectNewestFirst(list: { id: string; createdAt: string }[]): void {
  for (let i = 1; i < list.length; i++) {
    const [a, b] = [list[i - 1]!, list[i]!];
    expect(a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id), `${a.id} before ${b.id}`).toBe(true);
  }
}

async function readOnlyAdminToken(): Promise<string> {
  const me = await t.get('/api/v1/me');
  return (await t.post(`/api/v1/users/${me.body.id}/tokens`, { scopes: ['read'] })).body.token;
}

describe('built-in templates', () => {
  it('are seeded at start, enabled and marked builtIn', async () => {
    const list: Template[] = (await t.get(TEMPLATES, user.token)).body;
    for (const seeded of BUILTIN_TEMPLATES) {
      expect(list.find((x) => x.name === seeded.name)).toMatchObject({ builtIn: true, enabled: true, body: seeded.body });
    }
    expect(list.filter((x) => x.builtIn)).toHaveLength(BUILTIN_TEMPLATES.length);
  });
});

describe('POST /api/v1/templates', () => {
  it('creates a template with defaults (201)', async () => {
    t.clock.set('2026-05-01T12:00:00.000Z');
    try {
      const res = await t.post(TEMPLATES, { name: 'Weekly', body: '{% for e in entries %}{{ e.minutes }}{% endfor %}' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: 'Weekly',
        description: '',
        body: '{% for e in entries %}{{ e.minutes }}{% endfor %}',
        nameTemplate: '',
        noteTemplate: '',
        enabled: true,
        builtIn: false,
        createdAt: '2026-05-01T12:00:00.000Z',
        updatedAt: '2026-05-01T12:00:00.000Z',
      });
      expect((await t.get(`${TEMPLATES}/${res.body.id}`, user.token)).body).toEqual(res.body);
    } finally {
      t.clock.reset();
    }
  });

  it('stores every field', async () => {
    const fields = {
      name: 'Full',
      description: 'About it',
      body: 'B',
      nameTemplate: 'Week {{ period.from }}',
      noteTemplate: 'Note',
      enabled: false,
    };
    const res = await t.post(TEMPLATES, fields);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject(fields);
  });

  it('accepts every field at its limit', async () => {
    const res = await t.post(TEMPLATES, {
      name: 'n'.repeat(100),
      description: 'd'.repeat(1000),
      body: 'b'.repeat(100_000),
      nameTemplate: 'm'.repeat(500),
      noteTemplate: 'o'.repeat(5000),
    });
    expect(res.status).toBe(201);
    expect(res.body.body).toHaveLength(100_000);
  });

  it.each([
    ['a missing name', { name: undefined }, '/name'],
    ['an empty name', { name: '' }, '/name'],
    ['a name of 101 chars', { name: 'n'.repeat(101) }, '/name'],
    ['a name not a string', { name: 7 }, '/name'],
    ['a description of 1001 chars', { description: 'd'.repeat(1001) }, '/description'],
    ['a missing body', { body: undefined }, '/body'],
    ['an empty body', { body: '' }, '/body'],
    ['a body of 100,001 chars', { body: 'b'.repeat(100_001) }, '/body'],
    ['a body with U+0000', { body: 'a\u0000' }, '/body'],
    ['a nameTemplate of 501 chars', { nameTemplate: 'm'.repeat(501) }, '/nameTemplate'],
    ['a noteTemplate of 5001 chars', { noteTemplate: 'o'.repeat(5001) }, '/noteTemplate'],
    ['a null noteTemplate', { noteTemplate: null }, '/noteTemplate'],
    ['enabled not a boolean', { enabled: 'yes' }, '/enabled'],
    ['builtIn given', { builtIn: true }, '/builtIn'],
    ['an unknown property', { colour: 'blue' }, '/colour'],
  ])('400 for %s', async (_label, fields, path) => {
    const body: Record<string, unknown> = { name: 'X', body: 'B', ...fields };
    for (const key of Object.keys(body)) if (body[key] === undefined) Reflect.deleteProperty(body, key);
    const problem = expectProblem(await t.post(TEMPLATES, body), 400);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
  });

  it('400s a Liquid syntax error, naming the field and the line', async () => {
    const problem = expectProblem(await t.post(TEMPLATES, { name: 'Broken', body: '# Title\n\n  {% if x %}never closed' }), 400);
    expect(problem.errors).toEqual([{ path: '/body', message: expect.stringMatching(/^line 3, column 3: /) }]);
  });

  it('checks nameTemplate and noteTemplate too, reporting every broken field', async () => {
    const problem = expectProblem(
      await t.post(TEMPLATES, { name: 'Broken', body: 'fine', nameTemplate: '{{ x | nosuchfilter }}', noteTemplate: 'a\n{% nosuchtag %}' }),
      400,
    );
    expect(problem.errors).toEqual([
      { path: '/nameTemplate', message: expect.stringMatching(/^line 1, column 1: .*nosuchfilter/) },
      { path: '/noteTemplate', message: expect.stringMatching(/^line 2, column 1: .*nosuchtag/) },
    ]);
    expect((await t.get(TEMPLATES, undefined, { includeDisabled: true })).body.some((x: Template) => x.name === 'Broken')).toBe(false);
  });

  it('is for instance admins only (403), with the write scope', async () => {
    expectProblem(await t.post(TEMPLATES, { name: 'Mine', body: 'B' }, user.token), 403);
    const res = await t.post(TEMPLATES, { name: 'Mine', body: 'B' }, await readOnlyAdminToken());
    expectProblem(res, 403);
    expect(res.headers['www-authenticate']).toContain('insufficient_scope');
    expectProblem(await t.post(TEMPLATES, { name: 'Mine', body: 'B' }, null), 401);
  });
});

describe('GET /api/v1/templates', () => {
  let on: Template;
  let off: Template;
  beforeAll(async () => {
    on = await create({ name: 'aaa enabled' });
    off = await create({ name: 'aaa disabled', enabled: false });
  });

  it('lists enabled templates newest first to everyone', async () => {
    const res = await t.get(TEMPLATES, user.token);
    expect(res.status).toBe(200);
    const list: Template[] = res.body;
    expect(list.map((x) => x.id)).toContain(on.id);
    expect(list.map((x) => x.id)).not.toContain(off.id);
    expect(list.every((x) => x.enabled)).toBe(true);
    expectNewestFirst(list);
    expect(list.find((x) => x.id === on.id)).toEqual(on);
  });

  it('orders by createdAt desc, then id desc, whatever the names', async () => {
    let older: Template, newerA: Template, newerB: Template, disabled: Template;
    try {
      t.clock.set('2026-04-02T00:00:00.000Z');
      newerA = await create({ name: 'A newer' });
      t.clock.set('2026-04-01T00:00:00.000Z');
      older = await create({ name: 'Z older' });
      t.clock.set('2026-04-02T00:00:00.000Z');
      // Same instant as newerA, created after it: the greater id comes first.
      newerB = await create({ name: 'B newer' });
      t.clock.set('2026-04-01T12:00:00.000Z');
      disabled = await create({ name: 'M disabled', enabled: false });
    } finally {
      t.clock.reset();
    }
    expect(newerB.id > newerA.id).toBe(true);
    const mine = (list: Template[], ids: string[]) => list.map((x) => x.id).filter((id) => ids.includes(id));

    const enabled: Template[] = (await t.get(TEMPLATES, user.token)).body;
    expectNewestFirst(enabled);
    expect(mine(enabled, [older.id, newerA.id, newerB.id, disabled.id])).toEqual([newerB.id, newerA.id, older.id]);

    const all: Template[] = (await t.get(TEMPLATES, undefined, { includeDisabled: true })).body;
    expectNewestFirst(all);
    expect(mine(all, [older.id, newerA.id, newerB.id, disabled.id])).toEqual([newerB.id, newerA.id, disabled.id, older.id]);
  });

  it('lists disabled templates too for an instance admin asking with includeDisabled=true', async () => {
    expect((await t.get(TEMPLATES)).body.map((x: Template) => x.id)).not.toContain(off.id);
    expect((await t.get(TEMPLATES, undefined, { includeDisabled: false })).body.map((x: Template) => x.id)).not.toContain(off.id);
    const all: Template[] = (await t.get(TEMPLATES, undefined, { includeDisabled: true })).body;
    expect(all.map((x) => x.id)).toEqual(expect.arrayContaining([on.id, off.id]));
    expect(all.find((x) => x.id === off.id)).toEqual(off);
  });

  it('403s includeDisabled=true from anyone else; false is harmless', async () => {
    expectProblem(await t.get(TEMPLATES, user.token, { includeDisabled: true }), 403);
    expect((await t.get(TEMPLATES, user.token, { includeDisabled: false })).status).toBe(200);
  });

  it('400s a bad or unknown query parameter', async () => {
    expect(expectProblem(await t.get(TEMPLATES, user.token, { includeDisabled: 'maybe' }), 400).errors?.[0]?.path).toBe(
      '/query/includeDisabled',
    );
    expect(expectProblem(await t.get(TEMPLATES, user.token, { sort: 'name' }), 400).errors?.[0]?.path).toBe('/query/sort');
  });

  it('needs a read token', async () => {
    const writeOnly = await t.post(`/api/v1/users/${user.id}/tokens`, { scopes: ['write'] });
    expectProblem(await t.get(TEMPLATES, writeOnly.body.token), 403);
    expectProblem(await t.get(TEMPLATES, null), 401);
  });
});

describe('GET /api/v1/templates/:id', () => {
  it('shows an enabled template to anyone, a disabled one only to instance admins (404 otherwise)', async () => {
    const on = await create();
    const off = await create({ enabled: false });
    expect((await t.get(`${TEMPLATES}/${on.id}`, user.token)).body).toEqual(on);
    expectProblem(await t.get(`${TEMPLATES}/${off.id}`, user.token), 404);
    expect((await t.get(`${TEMPLATES}/${off.id}`)).body).toEqual(off);
  });

  it('404s an unknown id', async () => {
    expectProblem(await t.get(`${TEMPLATES}/no-such-template`, user.token), 404);
    expectProblem(await t.get(`${TEMPLATES}/no-such-template`), 404);
  });
});

describe('PATCH /api/v1/templates/:id', () => {
  it('changes any field, enabled included, and moves updatedAt', async () => {
    t.clock.set('2026-05-01T00:00:00.000Z');
    const created = await create();
    t.clock.set('2026-05-02T00:00:00.000Z');
    try {
      const fields = {
        name: 'Renamed',
        description: 'Now described',
        body: 'New {{ x }}',
        nameTemplate: 'N',
        noteTemplate: 'O',
        enabled: false,
      };
      const res = await t.patch(`${TEMPLATES}/${created.id}`, fields);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...created, ...fields, updatedAt: '2026-05-02T00:00:00.000Z' });
      expectProblem(await t.get(`${TEMPLATES}/${created.id}`, user.token), 404);
      expect((await t.patch(`${TEMPLATES}/${created.id}`, { enabled: true })).body.enabled).toBe(true);
      expect((await t.get(`${TEMPLATES}/${created.id}`, user.token)).status).toBe(200);
    } finally {
      t.clock.reset();
    }
  });

  it('changes nothing for an empty patch', async () => {
    const created = await create();
    expect((await t.patch(`${TEMPLATES}/${created.id}`, {})).body).toEqual(created);
  });

  it('validates like create, Liquid syntax included', async () => {
    const created = await create();
    for (const [body, path] of [
      [{ name: '' }, '/name'],
      [{ name: 'n'.repeat(101) }, '/name'],
      [{ body: 'b'.repeat(100_001) }, '/body'],
      [{ nameTemplate: 'm'.repeat(501) }, '/nameTemplate'],
      [{ enabled: null }, '/enabled'],
      [{ builtIn: true }, '/builtIn'],
      [{ body: 'ok\n{{ x' }, '/body'],
    ] as const) {
      const problem = expectProblem(await t.patch(`${TEMPLATES}/${created.id}`, body), 400);
      expect(problem.errors?.map((e) => e.path)).toContain(path);
    }
    const syntax = expectProblem(await t.patch(`${TEMPLATES}/${created.id}`, { noteTemplate: 'a\nb\n{% endif %}' }), 400);
    expect(syntax.errors?.[0]).toEqual({ path: '/noteTemplate', message: expect.stringMatching(/^line 3, column \d+: /) });
    expect((await t.get(`${TEMPLATES}/${created.id}`)).body).toEqual(created);
  });

  it('403s non-admins and read-only tokens; 404s an unknown id', async () => {
    const created = await create();
    expectProblem(await t.patch(`${TEMPLATES}/${created.id}`, { name: 'Mine' }, user.token), 403);
    expectProblem(await t.patch(`${TEMPLATES}/${created.id}`, { name: 'Mine' }, await readOnlyAdminToken()), 403);
    expectProblem(await t.patch(`${TEMPLATES}/no-such-template`, { name: 'X' }), 404);
    expectProblem(await t.patch(`${TEMPLATES}/no-such-template`, {}), 404);
  });
});

describe('DELETE /api/v1/templates/:id', () => {
  it('deletes (204); then the template is gone', async () => {
    const created = await create();
    const res = await t.del(`${TEMPLATES}/${created.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectProblem(await t.get(`${TEMPLATES}/${created.id}`), 404);
    expect((await t.get(TEMPLATES, undefined, { includeDisabled: true })).body.map((x: Template) => x.id)).not.toContain(created.id);
    expectProblem(await t.del(`${TEMPLATES}/${created.id}`), 404);
  });

  it('403s non-admins and read-only tokens', async () => {
    const created = await create();
    expectProblem(await t.del(`${TEMPLATES}/${created.id}`, user.token), 403);
    expectProblem(await t.del(`${TEMPLATES}/${created.id}`, await readOnlyAdminToken()), 403);
    expect((await t.get(`${TEMPLATES}/${created.id}`, user.token)).status).toBe(200);
  });
});

describe('POST /api/v1/templates/preview', () => {
  const PREVIEW = `${TEMPLATES}/preview`;
  let workspaceId: string;
  const filters = () => ({ workspaceIds: [workspaceId], dateRange: { from: '2026-02-01', to: '2026-02-28' } });

  beforeAll(async () => {
    workspaceId = (await t.post('/api/v1/workspaces', { name: 'Preview workspace' })).body.id;
    for (const [day, minutes, description] of [
      ['03', 90, 'Draft the plan'],
      ['10', 30, 'Review'],
    ] as const) {
      const res = await t.post('/api/v1/time-entries', { workspaceId, start: `2026-02-${day}T09:00:00Z`, minutes, description });
      expect(res.status).toBe(201);
    }
  });

  it('renders an unsaved body, name and note template against the filters, storing nothing', async () => {
    const before = (await t.get(TEMPLATES)).body.length;
    const reportsBefore = Number((await t.get('/api/v1/reports', undefined, { limit: 1 })).headers['x-total-count']);
    const res = await t.post(PREVIEW, {
      body: '# {{ report.name }}\n{% for e in entries %}- {{ e.date }} {{ e.description }} ({{ e.minutes }})\n{% endfor %}',
      nameTemplate: 'Work of {{ report.period.from }}',
      noteTemplate: '{{ entries.size }} entries',
      filters: filters(),
      name: 'Draft',
    });
    expect(res.status).toBe(200);
    expect(res.body.renderedMarkdown).toContain('# Draft');
    expect(res.body.renderedMarkdown).toContain('- 2026-02-03 Draft the plan (90)');
    expect(res.body.renderedMarkdown).toContain('- 2026-02-10 Review (30)');
    expect(res.body).toMatchObject({ suggestedName: 'Work of 2026-02-01', suggestedNote: '2 entries', totalMinutes: 120 });
    expect((await t.get(TEMPLATES)).body).toHaveLength(before);
    expect(Number((await t.get('/api/v1/reports', undefined, { limit: 1 })).headers['x-total-count'])).toBe(reportsBefore);
  });

  it('names the line and column of a syntax error at its field (400)', async () => {
    const res = await t.post(PREVIEW, { body: 'ok\n{% if %}', noteTemplate: '{{ x | nosuchfilter }}', filters: filters() });
    const problem = expectProblem(res, 400);
    expect(problem.errors?.map((e) => e.path)).toEqual(['/body', '/noteTemplate']);
    expect(problem.errors?.[0]?.message).toMatch(/line 2/);
  });

  it('reports an error while rendering at /body (400)', async () => {
    const res = await t.post(PREVIEW, { body: 'line one\n{{ "abc" | duration }}', filters: filters() });
    const problem = expectProblem(res, 400);
    expect(problem.errors?.[0]?.path).toBe('/body');
    expect(problem.errors?.[0]?.message).toMatch(/line 2/);
  });

  it('follows the report rules for filters: a workspace of someone else is a 400', async () => {
    const other = await newUser(t);
    const theirs = (await t.post('/api/v1/workspaces', { name: 'Theirs' }, other.token)).body.id;
    const res = await t.post(PREVIEW, { body: 'x', filters: { workspaceIds: [theirs], dateRange: 'last_month' } });
    expect(expectProblem(res, 400).errors).toEqual([{ path: '/filters/workspaceIds/0', message: 'is not a workspace you belong to' }]);
  });

  it('is for instance admins (403 for others) and takes the read scope', async () => {
    const own = (await t.post('/api/v1/workspaces', { name: 'Mine' }, user.token)).body.id;
    const body = { body: 'x', filters: { workspaceIds: [own], dateRange: 'last_month' } };
    expectProblem(await t.post(PREVIEW, body, user.token), 403);
    expectProblem(await t.post(PREVIEW, body, null), 401);
    const readOnly = await readOnlyAdminToken();
    expect((await t.post(PREVIEW, { ...body, filters: filters() }, readOnly)).status).toBe(200);
  });

  it('refuses what a template could not hold (schema limits, unknown fields)', async () => {
    expectProblem(await t.post(PREVIEW, { body: '', filters: filters() }), 400);
    expectProblem(await t.post(PREVIEW, { body: 'x'.repeat(100_001), filters: filters() }), 400);
    expectProblem(await t.post(PREVIEW, { body: 'x', nameTemplate: 'n'.repeat(501), filters: filters() }), 400);
    expectProblem(await t.post(PREVIEW, { body: 'x', filters: filters(), enabled: true }), 400);
    expectProblem(await t.post(PREVIEW, { body: 'x' }), 400);
    expectProblem(await t.post(PREVIEW, { body: 'a\u0000b', filters: filters() }), 400);
  });
});
