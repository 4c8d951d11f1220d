/**
 * A firm that bills (billing.md): two workspaces in two currencies, clients, billable projects and
 * rates at several levels with a change in the middle of November 2026, and entries of two people
 * that month. Made through the API, as a user would.
 */
import { expect } from 'vitest';
import { addMember, addProjectMember, newWorkspace } from './factories.js';
import { newUser, type TestContext, type TestUser } from './test-app.js';

export const eur = (minor: number) => ({ currency: 'EUR', minor });
export const usd = (minor: number) => ({ currency: 'USD', minor });

export interface Firm {
  owner: TestUser;
  bob: TestUser;
  acme: { id: string };
  globex: { id: string };
  website: { id: string };
  support: { id: string };
  internal: { id: string };
  migration: { id: string };
  northwind: { id: string };
  contoso: { id: string };
}

/**
 * Two workspaces: Acme in EUR (a workspace rate of 80, Website's rate 100 changing to 120 on the
 * 16th) and Globex in USD (150). Ada owns both, Bob is a member of Acme on Website and Support.
 */
export async function firm(t: TestContext): Promise<Firm> {
  const owner = await newUser(t, { name: 'Ada', timezone: 'Europe/Berlin' });
  const bob = await newUser(t, { name: 'Bob', timezone: 'Europe/Berlin' });
  const acme = await newWorkspace(t, owner, 'Acme');
  const globex = await newWorkspace(t, owner, 'Globex');
  expect((await t.patch(`/api/v1/workspaces/${globex.id}`, { currency: 'USD' }, owner.token)).status).toBe(200);
  await addMember(t, acme.id, bob, 'member', owner.token);
  const client = async (workspaceId: string, name: string) =>
    (await t.post(`/api/v1/workspaces/${workspaceId}/clients`, { name }, owner.token)).body as { id: string };
  const northwind = await client(acme.id, 'Northwind');
  const contoso = await client(globex.id, 'Contoso');
  const project = async (workspaceId: string, name: string, clientId: string | null, billableByDefault: boolean) => {
    const res = await t.post(`/api/v1/workspaces/${workspaceId}/projects`, { name, clientId, billableByDefault }, owner.token);
    expect(res.status).toBe(201);
    return res.body as { id: string };
  };
  const website = await project(acme.id, 'Website', northwind.id, true);
  const support = await project(acme.id, 'Support', northwind.id, true);
  const internal = await project(acme.id, 'Internal', null, false);
  const migration = await project(globex.id, 'Migration', contoso.id, true);
  await addProjectMember(t, website.id, bob.id, owner.token);
  await addProjectMember(t, support.id, bob.id, owner.token);
  const put = async (url: string, hourly: { currency: string; minor: number }, effectiveFrom: string) => {
    expect((await t.put(url, { hourly, effectiveFrom }, owner.token)).status).toBe(200);
  };
  await put(`/api/v1/workspaces/${acme.id}/rates`, eur(8000), '2026-01-01');
  await put(`/api/v1/projects/${website.id}/rates`, eur(10000), '2026-01-01');
  await put(`/api/v1/projects/${website.id}/rates`, eur(12000), '2026-11-16');
  await put(`/api/v1/workspaces/${globex.id}/rates`, usd(15000), '2026-01-01');
  const entry = async (workspaceId: string, projectId: string, user: TestUser, start: string, minutes: number, description: string) => {
    const res = await t.post('/api/v1/time-entries', { workspaceId, projectId, userId: user.id, start, minutes, description }, owner.token);
    expect(res.status).toBe(201);
  };
  // Berlin is UTC+1 in November.
  await entry(acme.id, website.id, owner, '2026-11-03T08:00:00Z', 50, 'a1');
  await entry(acme.id, website.id, owner, '2026-11-10T09:00:00Z', 95, 'a2');
  await entry(acme.id, website.id, owner, '2026-11-17T08:00:00Z', 61, 'a3');
  await entry(acme.id, website.id, bob, '2026-11-20T13:00:00Z', 7, 'b1');
  await entry(acme.id, support.id, bob, '2026-11-12T08:00:00Z', 20, 'b2');
  await entry(acme.id, internal.id, owner, '2026-11-05T08:00:00Z', 120, 'i1');
  await entry(globex.id, migration.id, owner, '2026-11-18T08:00:00Z', 45, 'm1');
  return { owner, bob, acme, globex, website, support, internal, migration, northwind, contoso };
}
