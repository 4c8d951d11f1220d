/**
 * Start-up tasks are safe when several processes start on one database at the same moment. Each
 * test starts from an empty database and closes the processes it started.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILTIN_TEMPLATES } from '../../src/render/builtin-templates.js';
import { buildApp } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import type { App } from '../../src/http/types.js';
import { resetDatabase, testDatabase } from '../helpers/test-database.js';
import { ADMIN_TOKEN, testConfig } from '../helpers/test-app.js';

const opened: App[] = [];
beforeEach(async () => {
  await resetDatabase(await testDatabase());
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((app) => app.close()));
});

/** One more process on the test database, closed after the test. */
async function start(config: Partial<Config> = {}): Promise<App> {
  const app = await buildApp({ config: testConfig(config), database: await testDatabase(), logger: false });
  opened.push(app);
  return app;
}

describe('concurrent start-up', () => {
  it('creates one admin and one set of built-in templates when three processes start together', async () => {
    const apps = await Promise.all(Array.from({ length: 3 }, () => start()));
    const res = await apps[0]!.inject({ method: 'GET', url: '/api/v1/users', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body).filter((u: { email: string }) => u.email === 'admin@localhost')).toHaveLength(1);
    const templates = await apps[1]!.inject({
      method: 'GET',
      url: '/api/v1/templates',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const names = JSON.parse(templates.body).map((t: { name: string }) => t.name);
    expect(names.length).toBeGreaterThanOrEqual(3);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('BOOTSTRAP_ADMIN_TOKEN on a later start', () => {
  it('makes sure the admin is named Administrator and is an instance admin again', async () => {
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const renamed = await (await start()).inject({ method: 'PATCH', url: '/api/v1/me', headers: auth, payload: { name: 'Renamed' } });
    expect(JSON.parse(renamed.body).name).toBe('Renamed');
    const again = await start();
    const me = JSON.parse((await again.inject({ method: 'GET', url: '/api/v1/me', headers: auth })).body);
    expect(me).toMatchObject({ name: 'Administrator', email: 'admin@localhost', instanceAdmin: true });
  });
});

describe('the share key at start-up', () => {
  it('refuses to start with a key that does not decrypt the existing share links', async () => {
    const database = await testDatabase();
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const app = await start();
    const call = async (method: string, url: string, payload?: object) =>
      JSON.parse((await app.inject({ method: method as 'POST', url, headers: auth, ...(payload ? { payload } : {}) })).body);
    const ws = await call('POST', '/api/v1/workspaces', { name: 'K' });
    const templates = await call('GET', '/api/v1/templates');
    const report = await call('POST', '/api/v1/reports', {
      name: 'R',
      templateId: templates[0].id,
      filters: { workspaceIds: [ws.id], dateRange: 'today' },
    });
    await call('POST', `/api/v1/reports/${report.id}/shares`, {});
    await expect(buildApp({ config: testConfig({ shareKey: Buffer.alloc(32, 1) }), database, logger: false })).rejects.toThrow(
      /SHARE_KEY does not decrypt/,
    );
    expect((await (await start()).inject({ method: 'GET', url: '/api/v1/me', headers: auth })).statusCode).toBe(200);
  });
});

/** An admin's calls to `app`, and its built-in templates by name (disabled ones included). */
function adminOf(app: App) {
  const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const call = async (method: string, url: string, payload?: object) =>
    JSON.parse((await app.inject({ method: method as 'PATCH', url, headers: auth, ...(payload ? { payload } : {}) })).body);
  const byName = async (name: string) =>
    (
      (await call('GET', '/api/v1/templates?includeDisabled=true')) as { id: string; name: string; body: string; nameTemplate: string }[]
    ).find((t) => t.name === name)!;
  return { call, byName };
}

describe('built-in templates of an earlier release', () => {
  it('get the current text at start-up when unedited, and keep an admin’s edits', async () => {
    const database = await testDatabase();
    const { call, byName } = adminOf(await start());
    // As an installation seeded by the earlier release: the timesheet as it was, the summary edited.
    const v1 = readFileSync(new URL('../fixtures/timesheet-v1.liquid', import.meta.url), 'utf8');
    const timesheet = await byName('Timesheet');
    const summary = await byName('Summary');
    expect(timesheet.body).toBe(BUILTIN_TEMPLATES[0]!.body);
    await call('PATCH', `/api/v1/templates/${timesheet.id}`, { body: v1 });
    await call('PATCH', `/api/v1/templates/${summary.id}`, { body: 'Edited: {{ totals.minutes }}' });
    await database.db.execute(sql`delete from instance_state where key = 'builtin_templates_v2'`);

    await start();
    expect((await byName('Timesheet')).body).toBe(BUILTIN_TEMPLATES[0]!.body);
    expect((await byName('Summary')).body).toBe('Edited: {{ totals.minutes }}');
  });

  it('get their charts at start-up: the Invoice summary of the release before them, unedited, is replaced', async () => {
    const database = await testDatabase();
    const { call, byName } = adminOf(await start());
    const v3 = readFileSync(new URL('../fixtures/invoice-summary-v3.liquid', import.meta.url), 'utf8');
    expect(v3).not.toContain('{% chart');
    const invoice = await byName('Invoice summary');
    const summary = await byName('Summary');
    await call('PATCH', `/api/v1/templates/${invoice.id}`, { body: v3 });
    await call('PATCH', `/api/v1/templates/${summary.id}`, { body: 'Edited: {{ totals.minutes }}' });
    await database.db.execute(sql`delete from instance_state where key = 'builtin_templates_v5'`);

    await start();
    const upgraded = await byName('Invoice summary');
    expect(upgraded.body).toBe(BUILTIN_TEMPLATES.find((t) => t.key === 'invoice-summary')!.body);
    expect(upgraded.body).toContain('{% chart "amount_by_client" %}');
    expect((await byName('Summary')).body).toBe('Edited: {{ totals.minutes }}');
  });
  it('speak the report’s language once the release that translated them starts: the Timesheet of the release before, unedited, is replaced', async () => {
    const database = await testDatabase();
    const { call, byName } = adminOf(await start());
    const v5 = readFileSync(new URL('../fixtures/timesheet-v5.liquid', import.meta.url), 'utf8');
    const v5Name = 'Timesheet {{ report.period.from | date: "%-d %b %Y" }} – {{ report.period.to | date: "%-d %b %Y" }}';
    expect(v5).not.toContain('| t }}');
    const timesheet = await byName('Timesheet');
    await call('PATCH', `/api/v1/templates/${timesheet.id}`, { body: v5, nameTemplate: v5Name });
    await database.db.execute(sql`delete from instance_state where key = 'builtin_templates_v6'`);

    await start();
    const upgraded = await byName('Timesheet');
    const current = BUILTIN_TEMPLATES.find((t) => t.key === 'timesheet')!;
    expect(upgraded.body).toBe(current.body);
    expect(upgraded.nameTemplate).toBe(current.nameTemplate);
    expect(upgraded.body).toContain('{{ "Day total" | t }}');
  });
  it('print a Tags column only for tagged entries once the release that made it so starts: the Timesheet of the release before, unedited, is replaced; an edited one stays', async () => {
    const database = await testDatabase();
    const { call, byName } = adminOf(await start());
    const v7 = readFileSync(new URL('../fixtures/timesheet-v7.liquid', import.meta.url), 'utf8');
    expect(v7).toContain('| {{ "Tags" | t }} |');
    expect(v7).not.toContain('tagged');
    await call('PATCH', `/api/v1/templates/${(await byName('Timesheet')).id}`, { body: v7 });
    await call('PATCH', `/api/v1/templates/${(await byName('Summary')).id}`, { body: `${v7}\nEdited.` });
    await database.db.execute(sql`delete from instance_state where key = 'builtin_templates_v8'`);

    await start();
    const current = BUILTIN_TEMPLATES.find((t) => t.key === 'timesheet')!;
    expect((await byName('Timesheet')).body).toBe(current.body);
    expect(current.body).toContain('{% if tagged %} {{ "Tags" | t }} |{% endif %}');
    expect((await byName('Summary')).body).toBe(`${v7}\nEdited.`);
  });
  it('suggest names whose days read in the report’s language once the release that made them so starts; an edited name stays', async () => {
    const database = await testDatabase();
    const { call, byName } = adminOf(await start());
    const day = (field: string) => `{{ report.period.${field} | date: "%-d %b %Y" }}`;
    const v6Name = (word: string) => `{{ "${word}" | t }} ${day('from')} – ${day('to')}`;
    await call('PATCH', `/api/v1/templates/${(await byName('Timesheet')).id}`, { nameTemplate: v6Name('Timesheet') });
    await call('PATCH', `/api/v1/templates/${(await byName('Summary')).id}`, { nameTemplate: `Summary ${day('from')}` });
    await database.db.execute(sql`delete from instance_state where key = 'builtin_templates_v7'`);

    await start();
    const current = BUILTIN_TEMPLATES.find((t) => t.key === 'timesheet')!;
    expect((await byName('Timesheet')).nameTemplate).toBe(current.nameTemplate);
    expect(current.nameTemplate).toContain('{% assign day_format = "%-d %b %Y" | t %}');
    expect((await byName('Summary')).nameTemplate).toBe(`Summary ${day('from')}`);
  });
});
