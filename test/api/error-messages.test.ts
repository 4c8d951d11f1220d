/**
 * Validation errors explain themselves (docs/api.md "Conventions"): one message per field, the
 * allowed values of an enum or a union named from the schema, and what a date or a date-time lacks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REACTION_KEYS } from '../../src/db/schema.js';
import { DATE_PRESETS } from '../../src/render/date-range.js';
import { buildTestApp, expectProblem, type TestContext, type TestUser } from '../helpers/test-app.js';
import { newTeam } from '../helpers/factories.js';
import { builtInTemplateId } from '../helpers/report-factories.js';

let t: TestContext;
let owner: TestUser;
let workspaceId: string;
let templateId: string;
beforeAll(async () => {
  t = await buildTestApp();
  const team = await newTeam(t);
  owner = team.owner;
  workspaceId = team.workspace.id;
  templateId = await builtInTemplateId(t);
});
afterAll(() => t.close());

const createReport = (dateRange: unknown) =>
  t.post('/api/v1/reports', { name: 'R', templateId, filters: { workspaceIds: [workspaceId], dateRange } }, owner.token);

describe('a union that nothing matched', () => {
  it('answers one message listing the presets and the object form', async () => {
    const problem = expectProblem(await createReport('lastmonth'), 400);
    expect(problem.errors).toEqual([
      { path: '/filters/dateRange', message: `must be one of ${DATE_PRESETS.join(', ')}, or an object {from, to}` },
    ]);
  });

  it('explains the object form when an object was sent', async () => {
    const problem = expectProblem(await createReport({ from: '2026-01-01' }), 400);
    expect(problem.errors).toEqual([{ path: '/filters/dateRange/to', message: 'is required' }]);
  });

  it('says a date range takes dates, not date-times, in one message per field', async () => {
    const problem = expectProblem(await createReport({ from: '2026-01-01T00:00:00Z', to: '2026-01-31' }), 400);
    expect(problem.errors).toEqual([{ path: '/filters/dateRange/from', message: 'must be a date YYYY-MM-DD, not a date-time' }]);
  });

  it('names the kinds of a nullable field', async () => {
    const res = await t.post(
      '/api/v1/time-entries',
      { workspaceId, projectId: 5, start: '2026-01-01T09:00:00Z', minutes: 30 },
      owner.token,
    );
    expect(expectProblem(res, 400).errors).toEqual([{ path: '/projectId', message: 'must be a string or null' }]);
  });
});

describe('an enum', () => {
  it('lists the token scopes', async () => {
    const res = await t.post(`/api/v1/users/${owner.id}/tokens`, { scopes: ['read', 'admin'] }, owner.token);
    expect(expectProblem(res, 400).errors).toEqual([{ path: '/scopes/1', message: 'must be one of read, write' }]);
  });

  it('lists the reaction keys', async () => {
    const report = await createReport({ from: '2026-11-01', to: '2026-11-30' });
    expect(report.status).toBe(201);
    const res = await t.put(`/api/v1/report-contents/${report.body.reportContentId}/reactions`, { emoji: 'smile' }, owner.token);
    expect(expectProblem(res, 400).errors).toEqual([{ path: '/emoji', message: `must be one of ${REACTION_KEYS.join(', ')}` }]);
  });
});

describe('a date-time', () => {
  it('without an offset says that an offset or Z is required', async () => {
    const res = await t.post('/api/v1/time-entries', { workspaceId, start: '2026-01-01T00:00:00', minutes: 30 }, owner.token);
    const errors = expectProblem(res, 400).errors ?? [];
    expect(errors).toHaveLength(1);
    expect(errors[0]?.path).toBe('/start');
    expect(errors[0]?.message).toMatch(/^must say its offset from UTC: add Z or an offset such as \+01:00/);
  });

  it('that is no date-time at all says what one looks like', async () => {
    const res = await t.post('/api/v1/time-entries', { workspaceId, start: 'tomorrow', minutes: 30 }, owner.token);
    expect(expectProblem(res, 400).errors).toEqual([
      { path: '/start', message: expect.stringMatching(/^must be a date-time with an offset or Z \(e\.g\. 2026-03-02T09:00:00Z/) },
    ]);
  });
});

it('a query parameter date names its form too', async () => {
  const res = await t.get('/api/v1/reports?from=2026-01-01T10:00:00Z', owner.token);
  expect(expectProblem(res, 400).errors).toEqual([{ path: '/query/from', message: 'must be a date YYYY-MM-DD, not a date-time' }]);
});
