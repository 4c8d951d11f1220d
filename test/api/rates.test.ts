import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../packages/client/src/index.js';
import { buildTestApp, expectProblem, newUser, readOnlyToken, type TestContext } from '../helpers/test-app.js';
import { addMember, addProjectMember, newProject, newTeam } from '../helpers/factories.js';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** A team (see newTeam) with a project that the plain member belongs to. */
async function team() {
  const members = await newTeam(t);
  const project = await newProject(t, members.workspace.id, members.owner.token);
  await addProjectMember(t, project.id, members.plain.id, members.owner.token);
  return { ...members, project };
}
type Team = Awaited<ReturnType<typeof team>>;

/** The four levels' URLs in a team: the member levels name the plain member. */
const LEVELS = {
  projectMember: (x: Team) => `/api/v1/projects/${x.project.id}/members/${x.plain.id}/rates`,
  project: (x: Team) => `/api/v1/projects/${x.project.id}/rates`,
  workspaceMember: (x: Team) => `/api/v1/workspaces/${x.workspace.id}/members/${x.plain.id}/rates`,
  workspace: (x: Team) => `/api/v1/workspaces/${x.workspace.id}/rates`,
} as const;
const levels = Object.entries(LEVELS);

const eur = (minor: number) => ({ currency: 'EUR', minor });

describe.each(levels)('the %s rate', (_name, urlOf) => {
  it('is set from a date and listed, oldest first', async () => {
    const x = await team();
    const url = urlOf(x);
    t.clock.set('2026-03-04T05:06:07.089Z');
    try {
      const put = await t.put(url, { hourly: eur(9000), effectiveFrom: '2026-05-01' }, x.owner.token);
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ hourly: eur(9000), effectiveFrom: '2026-05-01', createdAt: '2026-03-04T05:06:07.089Z' });
      expect((await t.put(url, { hourly: eur(8000), effectiveFrom: '2026-01-01' }, x.admin.token)).status).toBe(200);
      expect((await t.put(url, { hourly: null, effectiveFrom: '2026-09-01' }, x.owner.token)).status).toBe(200);
    } finally {
      t.clock.reset();
    }
    const list = await t.get(url, x.admin.token);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      { hourly: eur(8000), effectiveFrom: '2026-01-01', createdAt: '2026-03-04T05:06:07.089Z' },
      { hourly: eur(9000), effectiveFrom: '2026-05-01', createdAt: '2026-03-04T05:06:07.089Z' },
      { hourly: null, effectiveFrom: '2026-09-01', createdAt: '2026-03-04T05:06:07.089Z' },
    ]);
  });

  it('is 404 for a member of the workspace, an outsider and without a token it is 401', async () => {
    const x = await team();
    const url = urlOf(x);
    await t.put(url, { hourly: eur(100), effectiveFrom: '2026-01-01' }, x.owner.token);
    for (const user of [x.plain, x.outsider]) {
      expectProblem(await t.get(url, user.token), 404);
      expectProblem(await t.put(url, { hourly: eur(1), effectiveFrom: '2026-01-01' }, user.token), 404);
    }
    expectProblem(await t.get(url, null), 401);
    expect((await t.get(url, x.owner.token)).body).toEqual([expect.objectContaining({ hourly: eur(100) })]);
  });
});

describe('PUT on a rate', () => {
  it("takes today in the caller's time zone when effectiveFrom is left out", async () => {
    const x = await team();
    const tokyo = await newUser(t, { timezone: 'Asia/Tokyo' });
    await addMember(t, x.workspace.id, tokyo, 'admin', x.owner.token);
    t.clock.set('2026-03-04T20:00:00.000Z'); // 05:00 on 5 March in Tokyo, still 4 March in UTC
    try {
      const byTokyo = await t.put(LEVELS.workspace(x), { hourly: eur(1) }, tokyo.token);
      expect(byTokyo.body.effectiveFrom).toBe('2026-03-05');
      const byOwner = await t.put(LEVELS.project(x), { hourly: eur(1) }, x.owner.token);
      expect(byOwner.body.effectiveFrom).toBe('2026-03-04');
    } finally {
      t.clock.reset();
    }
  });

  it('replaces the row a level has for the date, and leaves other levels alone', async () => {
    const x = await team();
    await t.put(LEVELS.workspace(x), { hourly: eur(100), effectiveFrom: '2026-01-01' }, x.owner.token);
    await t.put(LEVELS.project(x), { hourly: eur(300), effectiveFrom: '2026-01-01' }, x.owner.token);
    await t.put(LEVELS.workspace(x), { hourly: eur(200), effectiveFrom: '2026-01-01' }, x.admin.token);
    expect((await t.get(LEVELS.workspace(x), x.owner.token)).body).toEqual([expect.objectContaining({ hourly: eur(200) })]);
    await t.put(LEVELS.workspace(x), { hourly: null, effectiveFrom: '2026-01-01' }, x.admin.token);
    expect((await t.get(LEVELS.workspace(x), x.owner.token)).body).toEqual([expect.objectContaining({ hourly: null })]);
    expect((await t.get(LEVELS.project(x), x.owner.token)).body).toEqual([expect.objectContaining({ hourly: eur(300) })]);
    expect((await t.get(LEVELS.projectMember(x), x.owner.token)).body).toEqual([]);
    expect((await t.get(LEVELS.workspaceMember(x), x.owner.token)).body).toEqual([]);
  });

  it('keeps one row when many PUTs for one date arrive at once', async () => {
    const x = await team();
    for (const urlOf of Object.values(LEVELS)) {
      const url = urlOf(x);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => t.put(url, { hourly: eur(1000 + i), effectiveFrom: '2026-06-01' }, x.owner.token)),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
      const list = (await t.get(url, x.owner.token)).body as { hourly: { minor: number } }[];
      expect(list).toHaveLength(1);
      expect(answers.map((a) => a.body.hourly.minor)).toContain(list[0]!.hourly.minor);
    }
  });

  it('takes the typed client', async () => {
    const x = await team();
    const rate = await unwrap(
      t.client(x.owner.token).PUT('/api/v1/workspaces/{id}/members/{userId}/rates', {
        params: { path: { id: x.workspace.id, userId: x.admin.id } },
        body: { hourly: eur(12345), effectiveFrom: '2026-02-28' },
      }),
    );
    expect(rate.hourly).toEqual(eur(12345));
    const list = await unwrap(
      t.client(x.owner.token).GET('/api/v1/workspaces/{id}/members/{userId}/rates', {
        params: { path: { id: x.workspace.id, userId: x.admin.id } },
      }),
    );
    expect(list.map((r) => r.effectiveFrom)).toEqual(['2026-02-28']);
  });

  it("refuses a currency other than the workspace's, naming /hourly/currency", async () => {
    const x = await team();
    const problem = expectProblem(await t.put(LEVELS.workspace(x), { hourly: { currency: 'USD', minor: 100 } }, x.owner.token), 400);
    expect(problem.errors).toEqual([{ path: '/hourly/currency', message: "must be the workspace's currency, EUR" }]);
    // After the workspace changes its currency, the new one is the one taken.
    expect((await t.patch(`/api/v1/workspaces/${x.workspace.id}`, { currency: 'USD' }, x.owner.token)).status).toBe(200);
    expect((await t.put(LEVELS.project(x), { hourly: { currency: 'USD', minor: 100 } }, x.owner.token)).status).toBe(200);
    expectProblem(await t.put(LEVELS.project(x), { hourly: eur(100) }, x.owner.token), 400);
  });

  it.each([
    [{}, '/hourly', 'missing hourly'],
    [{ hourly: 100 }, '/hourly', 'a number for hourly'],
    [{ hourly: { currency: 'EUR' } }, '/hourly/minor', 'missing minor'],
    [{ hourly: { minor: 100 } }, '/hourly/currency', 'missing currency'],
    [{ hourly: eur(-1) }, '/hourly/minor', 'negative minor'],
    [{ hourly: eur(1.5) }, '/hourly/minor', 'fractional minor'],
    [{ hourly: eur(100_000_001) }, '/hourly/minor', 'minor too large'],
    [{ hourly: { currency: 'EUR', minor: '100' } }, '/hourly/minor', 'minor as text'],
    [{ hourly: { currency: 'eur', minor: 100 } }, '/hourly/currency', 'currency in lower case'],
    [{ hourly: { currency: 'EURO', minor: 100 } }, '/hourly/currency', 'currency too long'],
    [{ hourly: { currency: 'EUR', minor: 100, cents: 1 } }, '/hourly/cents', 'unknown property of hourly'],
    [{ hourly: eur(1), effectiveFrom: '2026-02-30' }, '/effectiveFrom', 'no such date'],
    [{ hourly: eur(1), effectiveFrom: '2026-3-1' }, '/effectiveFrom', 'not YYYY-MM-DD'],
    [{ hourly: eur(1), effectiveFrom: '2026-03-01T00:00:00Z' }, '/effectiveFrom', 'a date-time'],
    [{ hourly: eur(1), effectiveFrom: null }, '/effectiveFrom', 'null date'],
    [{ hourly: eur(1), effectiveFrom: '0999-12-31' }, '/effectiveFrom', 'before the year 1000'],
    [{ hourly: eur(1), effectiveFrom: '0000-01-01' }, '/effectiveFrom', 'the year 0'],
    [{ hourly: eur(1), level: 'project' }, '/level', 'unknown property'],
  ])('400 for %j (%s: %s)', async (body, path, _label) => {
    const x = await team();
    const problem = expectProblem(await t.put(LEVELS.workspace(x), body, x.owner.token), 400);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
    expect((await t.get(LEVELS.workspace(x), x.owner.token)).body).toEqual([]);
  });

  it('takes 0 and the highest amount, and the first and last dates', async () => {
    const x = await team();
    for (const effectiveFrom of ['1000-01-01', '9999-12-31']) {
      expect((await t.put(LEVELS.project(x), { hourly: eur(1), effectiveFrom }, x.owner.token)).status).toBe(200);
    }
    expect((await t.put(LEVELS.workspace(x), { hourly: eur(0), effectiveFrom: '2026-01-01' }, x.owner.token)).status).toBe(200);
    expect((await t.put(LEVELS.workspace(x), { hourly: eur(100_000_000), effectiveFrom: '2026-01-02' }, x.owner.token)).status).toBe(200);
  });

  it('needs the write scope', async () => {
    const x = await team();
    expectProblem(await t.put(LEVELS.workspace(x), { hourly: eur(1) }, await readOnlyToken(t, x.owner)), 403);
    expect((await t.get(LEVELS.workspace(x), await readOnlyToken(t, x.owner))).status).toBe(200);
  });
});

describe('who and what a rate route finds', () => {
  it('lets an instance admin who is no member manage rates', async () => {
    const x = await team();
    const instanceAdmin = await newUser(t, { instanceAdmin: true });
    expect((await t.put(LEVELS.projectMember(x), { hourly: eur(5) }, instanceAdmin.token)).status).toBe(200);
    expect((await t.get(LEVELS.workspace(x), instanceAdmin.token)).status).toBe(200);
  });

  it('is 404 for a workspace or project that does not exist', async () => {
    const x = await team();
    for (const url of [
      '/api/v1/workspaces/no-such-workspace/rates',
      `/api/v1/workspaces/no-such-workspace/members/${x.plain.id}/rates`,
      '/api/v1/projects/no-such-project/rates',
      `/api/v1/projects/no-such-project/members/${x.plain.id}/rates`,
    ]) {
      expectProblem(await t.get(url, x.owner.token), 404);
      expectProblem(await t.put(url, { hourly: eur(1) }, x.owner.token), 404);
      const instanceAdmin = await newUser(t, { instanceAdmin: true });
      expectProblem(await t.get(url, instanceAdmin.token), 404);
    }
  });

  it("is 404 for an admin of another workspace, on this workspace's rates and projects", async () => {
    const x = await team();
    const other = await team();
    for (const urlOf of Object.values(LEVELS)) {
      expectProblem(await t.get(urlOf(x), other.owner.token), 404);
      expectProblem(await t.put(urlOf(x), { hourly: eur(1) }, other.owner.token), 404);
    }
  });

  it('is 404 for a member rate of a user who is not a member of the workspace', async () => {
    const x = await team();
    for (const userId of [x.outsider.id, 'no-such-user']) {
      for (const url of [
        `/api/v1/workspaces/${x.workspace.id}/members/${userId}/rates`,
        `/api/v1/projects/${x.project.id}/members/${userId}/rates`,
      ]) {
        expectProblem(await t.get(url, x.owner.token), 404);
        expectProblem(await t.put(url, { hourly: eur(1) }, x.owner.token), 404);
      }
    }
  });

  it('takes a project member rate for a member of the project or an admin of the workspace, not for another member', async () => {
    const x = await team();
    const other = await newUser(t);
    await addMember(t, x.workspace.id, other, 'member', x.owner.token);
    const url = (userId: string) => `/api/v1/projects/${x.project.id}/members/${userId}/rates`;
    expectProblem(await t.put(url(other.id), { hourly: eur(1) }, x.owner.token), 404);
    expect((await t.put(url(x.plain.id), { hourly: eur(1) }, x.owner.token)).status).toBe(200);
    expect((await t.put(url(x.admin.id), { hourly: eur(1) }, x.owner.token)).status).toBe(200);
  });

  it('keeps a rate from leaking across workspaces: a project of another workspace is 404 even for its own member level', async () => {
    const x = await team();
    const other = await team();
    expectProblem(await t.put(`/api/v1/projects/${other.project.id}/members/${x.plain.id}/rates`, { hourly: eur(1) }, x.owner.token), 404);
  });

  it('loses an admin access when they are made a plain member', async () => {
    const x = await team();
    expect((await t.get(LEVELS.workspace(x), x.admin.token)).status).toBe(200);
    await addMember(t, x.workspace.id, x.admin, 'member', x.owner.token);
    expectProblem(await t.get(LEVELS.workspace(x), x.admin.token), 404);
  });
});
