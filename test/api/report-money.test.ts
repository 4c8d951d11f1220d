/**
 * Money in reports (billing.md §3 and §5, docs/api.md "Report options" and "Money in reports"):
 * options stored and returned, rounding, rates and amounts per entry and per total, the Invoice
 * summary, locales, who sees money, and versions that keep the money they were rendered with.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, expectProblem, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { eur, firm, type Firm } from '../helpers/billing-factories.js';
import { builtInTemplateId, newTemplate } from '../helpers/report-factories.js';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const MONTH = { from: '2026-11-01', to: '2026-11-30' };

/** A template that prints what the render context holds, one fact a line, for exact assertions. */
const DUMP = `{% for e in entries %}E {{ e.description }} {{ e.billable }} {{ e.minutes }} {{ e.billableMinutes }} {{ e.rate.currency }}{{ e.rate.minor }} {{ e.amount.currency }}{{ e.amount.minor }} {{ e.client.name }}
{% endfor %}T {{ totals.minutes }} {{ totals.billableMinutes }} {{ totals.nonBillableMinutes }} {% for a in totals.amounts %}{{ a.currency }}{{ a.minor }};{% endfor %}{% if totals.amounts == nil %}nil{% endif %}
{% for c in groups.byClient %}C {{ c.name }} {{ c.billableMinutes }} {% for a in c.amounts %}{{ a.currency }}{{ a.minor }};{% endfor %}
{% endfor %}{% for p in groups.byProject %}P {{ p.name }} {{ p.billableMinutes }} {% for a in p.amounts %}{{ a.currency }}{{ a.minor }};{% endfor %}
{% endfor %}{% for d in groups.byDay %}D {{ d.date }} {% for a in d.amounts %}{{ a.currency }}{{ a.minor }};{% endfor %}
{% endfor %}M {{ report.showsMoney }} {{ report.options.locale }} {{ report.options.rounding.mode }}`;

/** The document's body, without its front matter. */
const bodyOf = (markdown: string) =>
  markdown
    .split(/\n---\n/)
    .slice(1)
    .join('\n---\n');

/** Lines of a DUMP render starting with `tag`, without it. */
const dumped = (markdown: string, tag: string) =>
  bodyOf(markdown)
    .split('\n')
    .filter((line) => line.startsWith(`${tag} `))
    .map((line) => line.slice(tag.length + 1).trimEnd());

const QUARTER_UP = { rounding: { mode: 'up', minutes: 15 } };

async function create(owner: TestUser, body: Record<string, unknown>) {
  const res = await t.post('/api/v1/reports', { name: 'November', ...body }, owner.token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; reportContentId: string; renderedMarkdown: string; options: unknown; [k: string]: unknown };
}

describe('report options', () => {
  it('are returned with their defaults, the locale the owner’s, on create, read and list', async () => {
    const owner = await newUser(t, { locale: 'de' });
    const ws = await newWorkspace(t, owner);
    const report = await create(owner, { templateId: await builtInTemplateId(t), filters: { workspaceIds: [ws.id], dateRange: MONTH } });
    const defaults = { rounding: { mode: 'none' }, hideAmounts: false, billable: 'all', durationFormat: 'hm', locale: 'de' };
    expect(report.options).toEqual(defaults);
    expect((await t.get(`/api/v1/reports/${report.id}`, owner.token)).body.options).toEqual(defaults);
    expect((await t.get('/api/v1/reports', owner.token)).body[0].options).toEqual(defaults);
  });

  it('are stored as sent, kept by an edit that leaves them out and replaced by one that sends them', async () => {
    const owner = await newUser(t, { locale: 'fr' });
    const ws = await newWorkspace(t, owner);
    const templateId = await builtInTemplateId(t);
    const filters = { workspaceIds: [ws.id], dateRange: MONTH };
    const options = {
      rounding: { mode: 'nearest', minutes: 6 },
      hideAmounts: true,
      billable: 'billable',
      durationFormat: 'decimal',
      locale: 'en-us',
    };
    const report = await create(owner, { templateId, filters, options });
    const stored = { ...options, locale: 'en-US' };
    expect(report.options).toEqual(stored);
    const kept = await t.patch(`/api/v1/reports/${report.id}`, { name: 'Renamed', templateId, filters }, owner.token);
    expect(kept.status).toBe(200);
    expect(kept.body.options).toEqual(stored);
    const replaced = await t.patch(
      `/api/v1/reports/${report.id}`,
      { name: 'R', templateId, filters, options: { billable: 'nonBillable' } },
      owner.token,
    );
    expect(replaced.body.options).toEqual({
      rounding: { mode: 'none' },
      hideAmounts: false,
      billable: 'nonBillable',
      durationFormat: 'hm',
      locale: 'fr',
    });
    const preview = await t.post(
      '/api/v1/reports/preview',
      { name: 'P', templateId, filters, options: { durationFormat: 'decimal' } },
      owner.token,
    );
    expect(preview.status).toBe(200);
    expect(preview.body.options).toMatchObject({ durationFormat: 'decimal', locale: 'fr' });
  });

  it.each([
    [{ locale: 'xx-notalocale-zz' }, '/options/locale'],
    [{ locale: '' }, '/options/locale'],
    [{ rounding: { mode: 'up', minutes: 7 } }, '/options/rounding'],
    [{ rounding: { mode: 'sideways', minutes: 15 } }, '/options/rounding'],
    [{ rounding: { mode: 'up' } }, '/options/rounding'],
    [{ rounding: { mode: 'none', minutes: 15 } }, '/options/rounding'],
    [{ billable: 'yes' }, '/options/billable'],
    [{ durationFormat: 'hours' }, '/options/durationFormat'],
    [{ hideAmounts: 'true' }, '/options/hideAmounts'],
    [{ currency: 'EUR' }, '/options'],
  ])('refuse %j with a 400 naming %s, storing nothing', async (options, path) => {
    const owner = await newUser(t);
    const ws = await newWorkspace(t, owner);
    const body = { name: 'R', templateId: await builtInTemplateId(t), filters: { workspaceIds: [ws.id], dateRange: MONTH }, options };
    const res = await t.post('/api/v1/reports', body, owner.token);
    expectProblem(res, 400);
    expect(JSON.stringify(res.body.errors)).toContain(path);
    expect((await t.get('/api/v1/reports', owner.token)).body).toEqual([]);
  });

  it('refuse more than 50 client ids', async () => {
    const owner = await newUser(t);
    const ws = await newWorkspace(t, owner);
    const templateId = await builtInTemplateId(t);
    const ids = Array.from({ length: 51 }, (_, i) => `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`);
    const body = (clientIds: unknown) => ({ name: 'R', templateId, filters: { workspaceIds: [ws.id], dateRange: MONTH, clientIds } });
    expectProblem(await t.post('/api/v1/reports', body(ids), owner.token), 400);
    expectProblem(await t.post('/api/v1/reports', body([ids[0], ids[0]]), owner.token), 400);
  });
});

describe('money in a render', () => {
  let f: Firm;
  let dump: string;
  beforeAll(async () => {
    f = await firm(t);
    dump = await newTemplate(t, DUMP);
  });

  it('rounds each billable entry, prices it at its rate on its date, and sums totals from the rows, one per currency', async () => {
    const report = await create(f.owner, {
      templateId: dump,
      filters: { workspaceIds: [f.acme.id, f.globex.id], dateRange: MONTH, userIds: [f.owner.id, f.bob.id] },
      options: QUARTER_UP,
    });
    const md = report.renderedMarkdown;
    expect(dumped(md, 'E')).toEqual([
      'a1 true 50 60 EUR10000 EUR10000 Northwind',
      'i1 false 120 0 EUR8000',
      'a2 true 95 105 EUR10000 EUR17500 Northwind',
      'b2 true 20 30 EUR8000 EUR4000 Northwind',
      // The project's rate changed on the 16th (00:00 in the entry user's zone).
      'a3 true 61 75 EUR12000 EUR15000 Northwind',
      'm1 true 45 45 USD15000 USD11250 Contoso',
      'b1 true 7 15 EUR12000 EUR3000 Northwind',
    ]);
    expect(dumped(md, 'T')).toEqual(['398 330 120 EUR49500;USD11250;']);
    expect(dumped(md, 'C')).toEqual(['Northwind 285 EUR49500;', 'No client 0', 'Contoso 45 USD11250;']);
    expect(dumped(md, 'P')).toEqual(['Website 255 EUR45500;', 'Internal 0', 'Migration 45 USD11250;', 'Support 30 EUR4000;']);
    expect(dumped(md, 'M')).toEqual(['true en up']);
  });

  it('bills an Invoice summary by client, project and person, with a total per client and per currency', async () => {
    const report = await create(f.owner, {
      templateId: await builtInTemplateId(t, 'Invoice'),
      filters: { workspaceIds: [f.acme.id, f.globex.id], dateRange: MONTH, userIds: [f.owner.id, f.bob.id] },
      options: QUARTER_UP,
    });
    const body = bodyOf(report.renderedMarkdown);
    expect(body).toContain('**Billable:** 5h 30m · **Amount:** €495.00 / $112.50 · not billable: 2h 00m');
    expect(body).toContain('_Billable time is rounded up to 15 minutes per entry._');
    expect(body).toContain('## Northwind');
    expect(body).toContain('| Website | Ada | 2.75 | €100.00/h | €275.00 |');
    expect(body).toContain('| Website | Ada | 1.25 | €120.00/h | €150.00 |');
    expect(body).toContain('| Website | Bob | 0.25 | €120.00/h | €30.00 |');
    expect(body).toContain('| Support | Bob | 0.50 | €80.00/h | €40.00 |');
    expect(body).toContain('| **Total** | | **4.75** | | **€495.00** |');
    expect(body).toContain('## Contoso');
    expect(body).toContain('| Migration | Ada | 0.75 | $150.00/h | $112.50 |');
    expect(body).toContain('| **Billable time** | **5.50** | |');
    expect(body).toContain('| **Total due in EUR** | | **€495.00** |');
    expect(body).toContain('| **Total due in USD** | | **$112.50** |');
    expect(body).not.toContain('Internal');
  });

  it('totals a client whose time has no rate with its hours and an empty amount, not bold markers around nothing', async () => {
    const initech = await newWorkspace(t, f.owner, 'Initech');
    const hooli = (await t.post(`/api/v1/workspaces/${initech.id}/clients`, { name: 'Hooli' }, f.owner.token)).body as { id: string };
    const project = await t.post(
      `/api/v1/workspaces/${initech.id}/projects`,
      { name: 'Audit', clientId: hooli.id, billableByDefault: true },
      f.owner.token,
    );
    expect(project.status).toBe(201);
    const entry = await t.post(
      '/api/v1/time-entries',
      { workspaceId: initech.id, projectId: project.body.id, start: '2026-11-24T08:00:00Z', minutes: 30, description: 'h1' },
      f.owner.token,
    );
    expect(entry.status).toBe(201);
    const report = await create(f.owner, {
      templateId: await builtInTemplateId(t, 'Invoice'),
      filters: { workspaceIds: [f.acme.id, initech.id], dateRange: MONTH, userIds: [f.owner.id, f.bob.id] },
    });
    const body = bodyOf(report.renderedMarkdown);
    expect(body).toContain('## Hooli');
    expect(body).toContain('| Audit | Ada | 0.50 | — |  |');
    expect(body).toContain('| **Total** | | **0.50** | |  |');
    expect(body).not.toContain('****');
  });

  it('charts the Invoice summary’s amounts by client, one chart per currency, and none when amounts are hidden', async () => {
    const invoice = await builtInTemplateId(t, 'Invoice');
    const filters = { workspaceIds: [f.acme.id, f.globex.id], dateRange: MONTH, userIds: [f.owner.id, f.bob.id] };
    const body = bodyOf((await create(f.owner, { templateId: invoice, filters, options: QUARTER_UP })).renderedMarkdown);
    expect(body).toContain('```chart\namount_by_client: Amount by client (EUR)\nunit: EUR\nseries: Amount\nNorthwind: 49500\n```\n');
    expect(body).toContain('```chart\namount_by_client: Amount by client (USD)\nunit: USD\nseries: Amount\nContoso: 11250\n```\n');
    const hidden = bodyOf(
      (await create(f.owner, { templateId: invoice, filters, options: { ...QUARTER_UP, hideAmounts: true } })).renderedMarkdown,
    );
    expect(hidden).toContain('| **Billable time** | **5.50** |');
    expect(hidden).not.toContain('```chart');
  });

  it('draws the charts of a report in another locale in its formats, on the share page as in the document', async () => {
    const invoice = await builtInTemplateId(t, 'Invoice');
    const filters = { workspaceIds: [f.acme.id, f.globex.id], dateRange: MONTH, userIds: [f.owner.id, f.bob.id] };
    const report = await create(f.owner, { templateId: invoice, filters, options: { ...QUARTER_UP, locale: 'de' } });
    const body = bodyOf(report.renderedMarkdown);
    expect(body).toContain(
      '```chart\namount_by_client: Betrag pro Kunde (EUR)\nunit: EUR\nlocale: de\nseries: Betrag\nNorthwind: 49500\n```\n',
    );
    expect(body).toContain('| **Fälliger Gesamtbetrag in EUR** | | **495,00\u00a0€** |');
    const link = await t.post(`/api/v1/reports/${report.id}/shares`, {}, f.owner.token);
    expect(link.status).toBe(201);
    const page = await t.request('GET', `/share/${link.body.token as string}`, { token: null });
    expect(page.status).toBe(200);
    // The chart's bar, axis and data table print the amount as the table above it does.
    const chart = page.text.slice(page.text.indexOf('<figure class="chart">'), page.text.indexOf('</figure>'));
    expect(chart).toContain('>495,00\u00a0€</text>');
    expect(chart).toContain('<td class="align-right">495,00\u00a0€</td>');
    expect(chart).toContain('>500\u00a0€</text>');
    expect(chart).not.toMatch(/€\d/);
  });

  it('prints money, hours, durations and dates in the report’s locale', async () => {
    const template = await newTemplate(
      t,
      '{{ totals.amounts | money }} | {{ totals.billableMinutes | hours }} | {{ totals.minutes | duration }} | {{ report.period.from | date: "long" }} | {{ report.period.from | date: "%B" }}',
    );
    const render = async (options: Record<string, unknown>) =>
      bodyOf(
        (await create(f.owner, { templateId: template, filters: { workspaceIds: [f.acme.id], dateRange: MONTH }, options }))
          .renderedMarkdown,
      ).trim();
    // Ada's own entries: 50, 95 and 61 billable minutes at 100, 100 and 120 an hour, and 120 not billable.
    expect(await render({ locale: 'en' })).toBe('€363.66 | 3.43 | 5h 26m | November 1, 2026 | November');
    expect(await render({ locale: 'de', durationFormat: 'decimal' })).toBe('363,66\u00a0€ | 3,43 | 5,43 | 1. November 2026 | November');
    expect(await render({ locale: 'ja', rounding: { mode: 'nearest', minutes: 60 } })).toBe(
      '€420.00 | 4.00 | 5h 26m | 2026年11月1日 | 11月',
    );
  });

  it('covers the billable, non-billable or every entry, and the entries of the filtered clients', async () => {
    const filters = { workspaceIds: [f.acme.id], dateRange: MONTH, userIds: [f.owner.id, f.bob.id] };
    const descriptions = async (extra: Record<string, unknown>) =>
      dumped((await create(f.owner, { templateId: dump, ...extra })).renderedMarkdown, 'E').map((line) => line.split(' ')[0]);
    expect(await descriptions({ filters, options: { billable: 'billable' } })).toEqual(['a1', 'a2', 'b2', 'a3', 'b1']);
    expect(await descriptions({ filters, options: { billable: 'nonBillable' } })).toEqual(['i1']);
    expect(await descriptions({ filters: { ...filters, clientIds: [f.northwind.id] } })).toEqual(['a1', 'a2', 'b2', 'a3', 'b1']);
    // A client of another workspace, or no client at all, matches nothing: an empty report.
    expect(await descriptions({ filters: { ...filters, clientIds: [f.contoso.id] } })).toEqual([]);
    expect(await descriptions({ filters: { ...filters, clientIds: ['00000000-0000-7000-8000-000000000000'] } })).toEqual([]);
  });

  it('gives the Timesheet Billable and Amount columns only when there is money to show', async () => {
    const timesheet = await builtInTemplateId(t);
    const filters = { workspaceIds: [f.acme.id], dateRange: MONTH };
    // No entry here has a tag: no Tags column.
    const withMoney = bodyOf((await create(f.owner, { templateId: timesheet, filters })).renderedMarkdown);
    expect(withMoney).toContain('| Date | Time | Project | Description | Duration | Billable | Amount |');
    expect(withMoney).toContain('| 2026-11-03 | 09:00 | Website | a1 | 0h 50m | 0h 50m | €83.33 |');
    expect(withMoney).toContain('| **Tuesday 2026-11-03** | | | **Day total** | **0h 50m** | **0h 50m** | **€83.33** |');
    // A day of only non-billable time has no amount: an empty cell, not bold markers around nothing.
    expect(withMoney).toContain('| **Thursday 2026-11-05** | | | **Day total** | **2h 00m** | **0h 00m** |  |');
    expect(withMoney).not.toContain('****');
    const hidden = bodyOf((await create(f.owner, { templateId: timesheet, filters, options: { hideAmounts: true } })).renderedMarkdown);
    expect(hidden).toContain('| Date | Time | Project | Description | Duration |\n');
    expect(hidden).not.toMatch(/€|Amount/);
  });
});

describe('who sees money', () => {
  let f: Firm;
  let dump: string;
  beforeAll(async () => {
    f = await firm(t);
    dump = await newTemplate(t, DUMP);
  });

  const bobsReport = (extra: Record<string, unknown> = {}) =>
    create(f.bob, { templateId: dump, filters: { workspaceIds: [f.acme.id], dateRange: MONTH }, ...extra });

  it('a member sees no rate or amount while the workspace shows rates to admins only, and sees them once it shows them to members', async () => {
    const hidden = await bobsReport();
    expect(dumped(hidden.renderedMarkdown, 'E')).toEqual(['b2 true 20 20   Northwind', 'b1 true 7 7   Northwind']);
    expect(dumped(hidden.renderedMarkdown, 'T')).toEqual(['27 27 0 nil']);
    expect(dumped(hidden.renderedMarkdown, 'M')).toEqual(['false en none']);
    const summary = (await t.get(`/api/v1/report-contents/${hidden.reportContentId}`, f.bob.token)).body.summary;
    expect(summary).toMatchObject({ billableMinutes: 27, amounts: null });
    expect(summary.byClient).toEqual([
      { id: f.northwind.id, name: 'Northwind', minutes: 27, entryCount: 2, billableMinutes: 27, amounts: null },
    ]);

    expect((await t.patch(`/api/v1/workspaces/${f.acme.id}`, { ratesVisibleTo: 'members' }, f.owner.token)).status).toBe(200);
    try {
      const shown = await bobsReport();
      expect(dumped(shown.renderedMarkdown, 'E')).toEqual([
        'b2 true 20 20 EUR8000 EUR2667 Northwind',
        'b1 true 7 7 EUR12000 EUR1400 Northwind',
      ]);
      expect((await t.get(`/api/v1/report-contents/${shown.reportContentId}`, f.bob.token)).body.summary.amounts).toEqual([eur(4067)]);
      // A report over a second workspace that shows rates to admins only shows no money at all.
      await addMember(t, f.globex.id, f.bob, 'member', f.owner.token);
      const mixed = await create(f.bob, { templateId: dump, filters: { workspaceIds: [f.acme.id, f.globex.id], dateRange: MONTH } });
      expect(dumped(mixed.renderedMarkdown, 'M')).toEqual(['false en none']);
    } finally {
      await t.patch(`/api/v1/workspaces/${f.acme.id}`, { ratesVisibleTo: 'admins' }, f.owner.token);
    }
  });

  it('hideAmounts takes every rate and amount out of the context and of the stored summary recipients read', async () => {
    const report = await create(f.owner, {
      templateId: dump,
      // Projects Bob reads, so he may receive it.
      filters: { workspaceIds: [f.acme.id], dateRange: MONTH, userIds: [f.owner.id, f.bob.id], projectIds: [f.website.id, f.support.id] },
      options: { hideAmounts: true, ...QUARTER_UP },
    });
    expect(report.renderedMarkdown).not.toContain('EUR');
    expect(dumped(report.renderedMarkdown, 'T')).toEqual(['233 285 0 nil']);
    expect((await t.post(`/api/v1/reports/${report.id}/send`, { recipientUserIds: [f.bob.id] }, f.owner.token)).status).toBe(201);
    const read = await t.get(`/api/v1/report-contents/${report.reportContentId}`, f.bob.token);
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toMatch(/EUR|"minor"/);
    expect(read.body.summary).toMatchObject({ billableMinutes: 285, nonBillableMinutes: 0, amounts: null });
  });
});

describe('a version keeps its money', () => {
  it('is not changed by a rate set after it was rendered; the next version uses the new rate, and the diff shows both', async () => {
    const f = await firm(t);
    const dump = await newTemplate(t, DUMP);
    const filters = { workspaceIds: [f.acme.id], dateRange: MONTH };
    const v1 = await create(f.owner, { templateId: dump, filters });
    const before = (await t.get(`/api/v1/report-contents/${v1.reportContentId}`, f.owner.token)).body;
    expect(before.summary.amounts).toEqual([eur(36366)]);

    // Website at 200 from the 1st: a1 and a2 cost more, a3 keeps the rate of the 16th.
    await t.put(`/api/v1/projects/${f.website.id}/rates`, { hourly: eur(20000), effectiveFrom: '2026-11-01' }, f.owner.token);
    const after = (await t.get(`/api/v1/report-contents/${v1.reportContentId}`, f.owner.token)).body;
    expect(after).toEqual(before);

    const v2 = await t.patch(`/api/v1/reports/${v1.id}`, { name: 'November', templateId: dump, filters }, f.owner.token);
    expect(v2.status).toBe(200);
    expect(dumped(v2.body.renderedMarkdown, 'T')).toEqual(['326 206 120 EUR60534;']);
    const diff = await t.get(`/api/v1/reports/${v1.id}/diff`, f.owner.token, { from: v1.reportContentId, to: v2.body.reportContentId });
    expect(diff.status).toBe(200);
    expect(diff.body.billing).toEqual({
      billableMinutes: { from: 206, to: 206, deltaMinutes: 0 },
      amounts: [{ currency: 'EUR', fromMinor: 36366, toMinor: 60534, deltaMinor: 24168 }],
    });
  });
});

describe('the rates one render may price', () => {
  it('refuses a report whose workspaces have more rate changes in its period than one render prices, and renders it with amounts hidden', async () => {
    const owner = await newUser(t);
    const ws = await newWorkspace(t, owner);
    // 20 projects whose rates change every day of the year: 7,300 rows in force during 2026.
    await t.database.db.execute(sql`insert into projects (id, workspace_id, name)
      select ${ws.id} || '-p' || p, ${ws.id}, 'Project ' || p from generate_series(1, 20) p`);
    await t.database.db.execute(sql`insert into rates (id, workspace_id, project_id, level, effective_from, currency, minor)
      select ${ws.id} || '-r' || p || '-' || d, ${ws.id}, ${ws.id} || '-p' || p, 'project', date '2026-01-01' + d, 'EUR', 1000 + d
      from generate_series(1, 20) p, generate_series(0, 364) d`);
    const templateId = await builtInTemplateId(t, 'Invoice');
    const body = (options: Record<string, unknown>) => ({
      name: 'Year',
      templateId,
      filters: { workspaceIds: [ws.id], dateRange: { from: '2026-01-01', to: '2026-12-31' } },
      options,
    });
    const refused = await t.post('/api/v1/reports', body({}), owner.token);
    expectProblem(refused, 400);
    expect(refused.body.errors).toEqual([{ path: '/filters', message: 'covers more rates than one report may price' }]);
    expect((await t.post('/api/v1/reports', body({ hideAmounts: true }), owner.token)).status).toBe(201);
    // A quarter of it has 1,820 rows, within the bound.
    const quarter = await t.post(
      '/api/v1/reports/preview',
      { ...body({}), filters: { workspaceIds: [ws.id], dateRange: { from: '2026-01-01', to: '2026-03-31' } } },
      owner.token,
    );
    expect(quarter.status).toBe(200);
  });
});
