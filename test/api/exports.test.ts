/**
 * Exports of a version (docs/exports.md): the frozen dataset stored with each new version, and the
 * CSV, XLSX, Markdown and JSON made from the version alone: their names, their columns and types,
 * inert formulas, hidden money, who may have them, and files that never change once made.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/db/rows.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, expectProblem, newUser, readOnlyToken, type TestContext, type TestUser } from '../helpers/test-app.js';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { eur, firm, type Firm } from '../helpers/billing-factories.js';
import { builtInTemplateId } from '../helpers/report-factories.js';
import { readPdf } from '../helpers/poppler.js';
import { resolveFallbackFonts } from '../../src/render/pdf/pdf-fonts.js';
import { decodeDataset } from '../../src/modules/exports/dataset.js';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const MONTH = { from: '2026-11-01', to: '2026-11-30' };
const exportOf = (contentId: string, format: string) => `/api/v1/report-contents/${contentId}/export?format=${format}`;

interface CreatedReport {
  id: string;
  reportContentId: string;
  version: number;
}

async function report(f: Firm, body: Record<string, unknown> = {}): Promise<CreatedReport> {
  const res = await t.post(
    '/api/v1/reports',
    {
      name: 'Acme November timesheet',
      templateId: await builtInTemplateId(t),
      filters: { workspaceIds: [f.acme.id], dateRange: MONTH, userIds: [f.owner.id, f.bob.id] },
      ...body,
    },
    f.owner.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as CreatedReport;
}

/** The raw bytes of an answer (a binary body does not survive as text). */
async function bytes(url: string, token: string | null): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  const res = await t.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, headers: res.headers, body: res.rawPayload };
}

type CsvRow = Record<string, string>;
const csvRows = (body: Buffer): CsvRow[] => parse<CsvRow>(body, { bom: true, columns: true, skip_empty_lines: true });

describe('GET /api/v1/report-contents/:id/export?format=csv', () => {
  it('is the version’s entries, one row each, with money in major units and an attachment name', async () => {
    const f = await firm(t);
    const r = await report(f);
    const res = await bytes(exportOf(r.reportContentId, 'csv'), f.owner.token);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['content-disposition'])).toContain(
      `filename*=UTF-8''Acme%20November%20timesheet%202026-11-01%E2%80%932026-11-30%20v1.csv`,
    );
    expect(res.body.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const text = res.body.toString('utf8').slice(1);
    expect(text.split('\r\n')[0]).toBe(
      'date,start,user,client,project,description,tags,minutes,billable,billable_minutes,rate,amount,currency',
    );
    const rows = csvRows(res.body);
    // The firm's Acme entries of Ada and Bob (Globex is another workspace), sorted by start.
    expect(rows.map((row) => row.description)).toEqual(['a1', 'i1', 'a2', 'b2', 'a3', 'b1']);
    const a3 = rows.find((row) => row.description === 'a3');
    // 61 minutes at 120.00 EUR from the 16th on: 122.00; Berlin is UTC+1.
    expect(a3).toEqual({
      date: '2026-11-17',
      start: '09:00',
      user: 'Ada',
      client: 'Northwind',
      project: 'Website',
      description: 'a3',
      tags: '',
      minutes: '61',
      billable: 'true',
      billable_minutes: '61',
      rate: '120.00',
      amount: '122.00',
      currency: 'EUR',
    });
    // A non-billable entry keeps the rate that applies to it, and has no amount.
    expect(rows.find((row) => row.description === 'i1')).toMatchObject({
      billable: 'false',
      billable_minutes: '0',
      rate: '80.00',
      amount: '',
      client: '',
    });
    expect(rows.find((row) => row.description === 'b1')).toMatchObject({ user: 'Bob', rate: '120.00', amount: '14.00' });
  });

  it('neutralises cells a spreadsheet would run as formulas', async () => {
    const owner = await newUser(t);
    const ws = await newWorkspace(t, owner);
    const hostile = ['=HYPERLINK("http://evil.example","x")', '+1+1', '-2+3', '@SUM(A1)', '\tTab', '\rReturn', 'plain, "quoted"\nline'];
    for (const [i, description] of hostile.entries()) {
      const start = `2026-11-0${i + 1}T09:00:00Z`;
      const res = await t.post(
        '/api/v1/time-entries',
        { workspaceId: ws.id, start, minutes: 30, description, tags: ['=cmd'] },
        owner.token,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const created = await t.post(
      '/api/v1/reports',
      { name: '=evil', templateId: await builtInTemplateId(t), filters: { workspaceIds: [ws.id], dateRange: MONTH } },
      owner.token,
    );
    expect(created.status).toBe(201);
    const res = await bytes(exportOf(created.body.reportContentId, 'csv'), owner.token);
    const rows = csvRows(res.body);
    expect(rows.map((row) => row.description)).toEqual([
      `'=HYPERLINK("http://evil.example","x")`,
      "'+1+1",
      "'-2+3",
      "'@SUM(A1)",
      "'\tTab",
      "'\rReturn",
      'plain, "quoted"\nline',
    ]);
    expect(rows.every((row) => row.tags === "'=cmd")).toBe(true);
    // The file name keeps no formula either: it is a name, never a cell.
    expect(String(res.headers['content-disposition'])).toContain('evil 2026-11-01');
  });

  it('leaves every money column empty where the version shows no money', async () => {
    const f = await firm(t);
    const r = await report(f, { options: { hideAmounts: true } });
    const rows = csvRows((await bytes(exportOf(r.reportContentId, 'csv'), f.owner.token)).body);
    expect(rows).toHaveLength(6);
    for (const row of rows) expect([row.rate, row.amount, row.currency]).toEqual(['', '', '']);
    expect(rows.find((row) => row.description === 'a3')?.billable_minutes).toBe('61');
  });

  it('is byte for byte the same after the entries, the template, the rates and the report change', async () => {
    const f = await firm(t);
    const custom = await t.post('/api/v1/templates', {
      name: `Lines ${Date.now()}`,
      body: '{% for e in entries %}- {{ e.description }}\n{% endfor %}',
    });
    expect(custom.status, JSON.stringify(custom.body)).toBe(201);
    const r = await report(f, { templateId: custom.body.id });
    const before = await Promise.all(
      ['csv', 'xlsx', 'md'].map(async (format) => (await bytes(exportOf(r.reportContentId, format), f.owner.token)).body),
    );

    const entries = (await t.get('/api/v1/time-entries', f.owner.token, { workspaceId: f.acme.id })).body as {
      id: string;
      description: string;
    }[];
    const a1 = entries.find((e) => e.description === 'a1');
    expect(a1).toBeDefined();
    expect((await t.patch(`/api/v1/time-entries/${a1?.id}`, { description: 'changed', minutes: 500 }, f.owner.token)).status).toBe(200);
    expect(
      (await t.put(`/api/v1/workspaces/${f.acme.id}/rates`, { hourly: eur(99_00), effectiveFrom: '2026-11-01' }, f.owner.token)).status,
    ).toBe(200);
    expect((await t.patch(`/api/v1/templates/${custom.body.id}`, { body: 'Nothing to see' })).status).toBe(200);
    const edited = await t.patch(
      `/api/v1/reports/${r.id}`,
      {
        name: 'Renamed',
        templateId: custom.body.id,
        filters: { workspaceIds: [f.acme.id], dateRange: MONTH, userIds: [f.owner.id, f.bob.id] },
      },
      f.owner.token,
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.reportContentId).not.toBe(r.reportContentId);

    const after = await Promise.all(
      ['csv', 'xlsx', 'md'].map(async (format) => (await bytes(exportOf(r.reportContentId, format), f.owner.token)).body),
    );
    expect(after.map((b) => b.toString('base64'))).toEqual(before.map((b) => b.toString('base64')));
    // The new version has the changes.
    const latest = csvRows((await bytes(exportOf(edited.body.reportContentId, 'csv'), f.owner.token)).body);
    expect(latest.find((row) => row.description === 'changed')).toMatchObject({ minutes: '500' });
  });
});

describe('GET /api/v1/report-contents/:id/export?format=xlsx', () => {
  it('has typed cells, a frozen header and a totals sheet per project and person', async () => {
    const f = await firm(t);
    const r = await report(f);
    const res = await bytes(exportOf(r.reportContentId, 'xlsx'), f.owner.token);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(String(res.headers['content-disposition'])).toContain('v1.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.body as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Entries');
    expect(sheet).toBeDefined();
    if (!sheet) return;
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'Date',
      'Start',
      'User',
      'Client',
      'Project',
      'Description',
      'Tags',
      'Minutes',
      'Billable',
      'Billable minutes',
      'Rate',
      'Amount',
      'Currency',
    ]);
    expect(sheet.rowCount).toBe(7);
    const a3 = sheet.getRow(6);
    expect(a3.getCell(6).value).toBe('a3');
    expect(a3.getCell(1).value).toEqual(new Date('2026-11-17T00:00:00.000Z'));
    expect(a3.getCell(1).numFmt).toBe('yyyy-mm-dd');
    // A time of day is a fraction of a day, which Excel (and exceljs reading it) counts from 1899-12-30.
    expect(a3.getCell(2).value).toEqual(new Date('1899-12-30T09:00:00.000Z'));
    expect(a3.getCell(2).numFmt).toBe('hh:mm');
    expect(a3.getCell(8).value).toBe(61);
    expect(a3.getCell(9).value).toBe(true);
    expect(a3.getCell(11).value).toBe(120);
    expect(a3.getCell(12).value).toBe(122);
    expect(a3.getCell(12).numFmt).toBe('#,##0.00 "EUR"');
    expect((sheet.getColumn(6).width ?? 0) >= 'Description'.length).toBe(true);

    const totals = workbook.getWorksheet('Totals');
    expect(totals).toBeDefined();
    const rows = (totals?.getSheetValues() ?? []).filter(Boolean).map((row) => (row as unknown[]).slice(1));
    expect(rows[0]).toEqual(['Group', 'Name', 'Client', 'Minutes', 'Hours', 'Billable minutes', 'Amount', 'Currency']);
    const byName = new Map(rows.slice(1).map((row) => [`${String(row[0])} ${String(row[1])}`, row]));
    // Website: 50 + 95 at 100, 61 + 7 at 120 (EUR): 83.33 + 158.33 + 122.00 + 14.00.
    expect(byName.get('Project Website')).toEqual(['Project', 'Website', 'Northwind', 213, 3.55, 213, 377.66, 'EUR']);
    expect(byName.get('Person Bob')?.slice(3)).toEqual([27, 0.45, 27, 40.67, 'EUR']);
    expect(byName.get('Report Total')?.slice(3, 6)).toEqual([353, 5.88, 233]);
  });

  it('names its sheets, headings and groups in the version’s language, the cells as before', async () => {
    const f = await firm(t);
    const r = await report(f, { options: { locale: 'de' } });
    const res = await bytes(exportOf(r.reportContentId, 'xlsx'), f.owner.token);
    expect(res.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.body as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Einträge', 'Summen']);
    const sheet = workbook.getWorksheet('Einträge')!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([
      'Datum',
      'Beginn',
      'Person',
      'Kunde',
      'Projekt',
      'Beschreibung',
      'Schlagwörter',
      'Minuten',
      'Abrechenbar',
      'Abrechenbare Minuten',
      'Satz',
      'Betrag',
      'Währung',
    ]);
    // A heading longer than its column's values widens the column.
    expect((sheet.getColumn(10).width ?? 0) >= 'Abrechenbare Minuten'.length).toBe(true);
    expect(sheet.getRow(6).getCell(12).value).toBe(122);
    const rows = workbook
      .getWorksheet('Summen')!
      .getSheetValues()
      .filter(Boolean)
      .map((row) => (row as unknown[]).slice(1));
    expect(rows[0]).toEqual(['Gruppe', 'Name', 'Kunde', 'Minuten', 'Stunden', 'Abrechenbare Minuten', 'Betrag', 'Währung']);
    const byName = new Map(rows.slice(1).map((row) => [`${String(row[0])} ${String(row[1])}`, row]));
    expect(byName.get('Projekt Website')).toEqual(['Projekt', 'Website', 'Northwind', 213, 3.55, 213, 377.66, 'EUR']);
    expect(byName.get('Bericht Gesamt')?.slice(3, 6)).toEqual([353, 5.88, 233]);
  });
});

describe('GET /api/v1/report-contents/:id/export?format=pdf', () => {
  it('is the document as searchable text, every entry and total in it, on the paper of the version’s locale', async () => {
    const f = await firm(t);
    const r = await report(f);
    const res = await bytes(exportOf(r.reportContentId, 'pdf'), f.owner.token);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(String(res.headers['content-disposition'])).toContain('v1.pdf');
    expect(res.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pdf = await readPdf(res.body);
    expect(pdf.pageSize).toMatch(/^595\.\d+ x 841\.\d+ pts \(A4\)/);
    for (const text of ['Acme November timesheet', 'a1', 'a2', 'a3', 'b1', 'b2', 'i1', 'Website', 'Page 1 of'])
      expect(pdf.text).toContain(text);
    // The Timesheet's total of Acme's 353 minutes.
    expect(pdf.text).toContain('5h 53m');

    const letter = await report(f, { options: { locale: 'en-US' } });
    const us = await readPdf((await bytes(exportOf(letter.reportContentId, 'pdf'), f.owner.token)).body);
    expect(us.pageSize).toMatch(/^612 x 792 pts \(letter\)/);
  });

  it.skipIf(resolveFallbackFonts('auto').length < 2)(
    'sets Japanese and Korean in the fallback fonts the server found (PDF_FALLBACK_FONT=auto), searchable',
    async () => {
      const f = await firm(t);
      const entry = await t.post(
        '/api/v1/time-entries',
        { workspaceId: f.acme.id, start: '2026-11-20T09:00:00Z', minutes: 30, description: '山田さんと打ち合わせ, 김민수 검토' },
        f.owner.token,
      );
      expect(entry.status).toBe(201);
      const r = await report(f, { name: '11月の作業報告' });
      const pdf = await readPdf((await bytes(exportOf(r.reportContentId, 'pdf'), f.owner.token)).body);
      // The description wraps in its cell; each of its words is on the page.
      for (const text of ['11月の作業報告', '山田さん', '김민수', '검토']) expect(pdf.text).toContain(text);
    },
  );

  it('a document past what one PDF may lay out is a 409 that says so', async () => {
    const owner = await newUser(t);
    const ws = await newWorkspace(t, owner);
    const wide = `| ${Array.from({ length: 120 }, (_, i) => `c${i}`).join(' | ')} |\n| ${Array.from({ length: 120 }, () => '---').join(' | ')} |\n`;
    const template = await t.post('/api/v1/templates', { name: `Wide ${Date.now()}`, body: wide });
    expect(template.status, JSON.stringify(template.body)).toBe(201);
    const created = await t.post(
      '/api/v1/reports',
      { name: 'Wide', templateId: template.body.id, filters: { workspaceIds: [ws.id], dateRange: MONTH } },
      owner.token,
    );
    expect(created.status).toBe(201);
    const res = await t.get(exportOf(created.body.reportContentId, 'pdf'), owner.token);
    expectProblem(res, 409);
    expect(res.body.detail).toContain('more than 100 columns');
    expect((await bytes(exportOf(created.body.reportContentId, 'csv'), owner.token)).status).toBe(200);
  });
});

describe('other formats', () => {
  it('md is the stored document and json the version read, both as attachments', async () => {
    const f = await firm(t);
    const r = await report(f);
    const version = await t.get(`/api/v1/report-contents/${r.reportContentId}`, f.owner.token);
    const md = await t.get(exportOf(r.reportContentId, 'md'), f.owner.token);
    expect(md.status).toBe(200);
    expect(md.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(md.text).toBe(version.body.renderedMarkdown);
    expect(String(md.headers['content-disposition'])).toMatch(/^attachment; filename=".* v1\.md"; filename\*=UTF-8''.*v1\.md$/);
    const json = await t.get(exportOf(r.reportContentId, 'json'), f.owner.token);
    expect(json.status).toBe(200);
    expect(json.body).toEqual(version.body);
    expect(String(json.headers['content-disposition'])).toContain('v1.json');
  });

  it('a version rendered before rows were kept has no CSV or XLSX (409), and still its Markdown', async () => {
    const f = await firm(t);
    const r = await report(f);
    // What a version made by an earlier release looks like: no dataset row.
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`alter table report_datasets disable trigger report_datasets_no_lone_delete`);
      await tx.execute(sql`delete from report_datasets where content_id = ${r.reportContentId}`);
      await tx.execute(sql`alter table report_datasets enable trigger report_datasets_no_lone_delete`);
    });
    for (const format of ['csv', 'xlsx']) {
      const res = await t.get(exportOf(r.reportContentId, format), f.owner.token);
      expectProblem(res, 409);
      expect(res.body.detail).toContain('rendered before Chronicle kept the rows');
    }
    expect((await t.get(exportOf(r.reportContentId, 'md'), f.owner.token)).status).toBe(200);
    const pdf = await bytes(exportOf(r.reportContentId, 'pdf'), f.owner.token);
    expect(pdf.status).toBe(200);
    expect((await readPdf(pdf.body)).text).toContain('a3');
  });

  it('400 for a format that is not one of them, naming the query field', async () => {
    const f = await firm(t);
    const r = await report(f);
    for (const format of ['exe', '', 'CSV', 'csv,xlsx']) {
      const res = await t.get(exportOf(r.reportContentId, encodeURIComponent(format)), f.owner.token);
      expectProblem(res, 400);
    }
    expectProblem(await t.get(`/api/v1/report-contents/${r.reportContentId}/export`, f.owner.token), 400);
  });
});

describe('the stored dataset', () => {
  it('is written with every new version, never with a preview, and cannot be changed or dropped alone', async () => {
    const f = await firm(t);
    const before = await datasetCount();
    const preview = await t.post(
      '/api/v1/reports/preview',
      { name: 'Preview', templateId: await builtInTemplateId(t), filters: { workspaceIds: [f.acme.id], dateRange: MONTH } },
      f.owner.token,
    );
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(await datasetCount()).toBe(before);
    const r = await report(f);
    expect(await datasetCount()).toBe(before + 1);
    const [row] = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`select entry_count as n from report_datasets where content_id = ${r.reportContentId}`),
    );
    expect(row?.n).toBe(6);
    await expect(
      t.database.db.execute(sql`update report_datasets set entry_count = 0 where content_id = ${r.reportContentId}`),
    ).rejects.toThrow();
    await expect(t.database.db.execute(sql`delete from report_datasets where content_id = ${r.reportContentId}`)).rejects.toThrow();
    // Deleting the report takes its versions and their datasets with it.
    expect((await t.del(`/api/v1/reports/${r.id}`, f.owner.token)).status).toBe(204);
    expect(await datasetCount()).toBe(before);
  });

  it('keeps no money where the version shows none, not even in the stored rows', async () => {
    const f = await firm(t);
    const shown = await storedDataset((await report(f)).reportContentId);
    expect(shown.format).toBe(2);
    expect(shown.moneyVisible).toBe(true);
    expect(shown.entries.some((e) => e[14] !== null)).toBe(true);
    const hidden = await storedDataset((await report(f, { options: { hideAmounts: true } })).reportContentId);
    expect(hidden.moneyVisible).toBe(false);
    expect(hidden.entries).toHaveLength(6);
    // Currency, rate and amount: the tuple's last three fields.
    for (const e of hidden.entries) expect(e.slice(12)).toEqual([null, null, null]);
  });

  it('written by an earlier release (format 1) gives the same files; a later format is a 409', async () => {
    const f = await firm(t);
    const r = await report(f);
    const files = async () =>
      Promise.all(['csv', 'xlsx'].map(async (format) => (await bytes(exportOf(r.reportContentId, format), f.owner.token)).body));
    const today = await files();
    const [row] = rowsOf<{ data: string; locale: string }>(
      await t.database.db.execute(sql`select data, locale from report_datasets where content_id = ${r.reportContentId}`),
    );
    const { entries, timezone, locale, moneyVisible } = decodeDataset(row?.data ?? '');
    // Format 1: one object per entry, every name and amount written out, as releases before format 2 stored it.
    const earlier = gzipSync(JSON.stringify({ format: 1, timezone, locale, moneyVisible, entries }), { level: 6 }).toString('base64');
    const replace = (format: number, data: string) =>
      t.database.db.transaction(async (tx) => {
        await tx.execute(sql`alter table report_datasets disable trigger report_datasets_no_lone_delete`);
        await tx.execute(sql`delete from report_datasets where content_id = ${r.reportContentId}`);
        await tx.execute(sql`alter table report_datasets enable trigger report_datasets_no_lone_delete`);
        await tx.execute(sql`insert into report_datasets (content_id, format, entry_count, locale, data)
          values (${r.reportContentId}, ${format}, ${entries.length}, ${row?.locale ?? 'en'}, ${data})`);
      });
    await replace(1, earlier);
    const fromEarlier = await files();
    expect(fromEarlier[0]?.equals(today[0] ?? Buffer.alloc(0))).toBe(true);
    expect(fromEarlier[1]?.equals(today[1] ?? Buffer.alloc(0))).toBe(true);

    await replace(3, earlier);
    for (const format of ['csv', 'xlsx']) {
      const res = await t.get(exportOf(r.reportContentId, format), f.owner.token);
      expectProblem(res, 409);
      expect(res.body.detail).toContain('in a format this release cannot read');
    }
  });

  it('holds every entry a template that reads none was rendered over', async () => {
    const f = await firm(t);
    const summary = await builtInTemplateId(t, 'ummary');
    const r = await report(f, { templateId: summary });
    expect(csvRows((await bytes(exportOf(r.reportContentId, 'csv'), f.owner.token)).body)).toHaveLength(6);
  });
});

/** The JSON a version's dataset row holds, before any reading (format 2: the render statement's tuples). */
async function storedDataset(contentId: string): Promise<{ format: number; moneyVisible: boolean; entries: unknown[][] }> {
  const [row] = rowsOf<{ data: string }>(
    await t.database.db.execute(sql`select data from report_datasets where content_id = ${contentId}`),
  );
  return JSON.parse(gunzipSync(Buffer.from(row?.data ?? '', 'base64')).toString('utf8')) as {
    format: number;
    moneyVisible: boolean;
    entries: unknown[][];
  };
}

async function datasetCount(): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from report_datasets`));
  return row?.n ?? 0;
}

describe('who may export', () => {
  async function shared(): Promise<{ f: Firm; r: CreatedReport; recipient: TestUser; stranger: TestUser; member: TestUser }> {
    const f = await firm(t);
    const r = await report(f, { filters: { workspaceIds: [f.acme.id], dateRange: MONTH } });
    const recipient = await newUser(t);
    await addMember(t, f.acme.id, recipient, 'member', f.owner.token);
    const member = await newUser(t);
    await addMember(t, f.acme.id, member, 'member', f.owner.token);
    const sent = await t.post(`/api/v1/reports/${r.id}/send`, { recipientUserIds: [recipient.id] }, f.owner.token);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    return { f, r, recipient, stranger: await newUser(t), member };
  }

  it('the owner, a read-only token and the version’s recipient; 404 for anyone else, 401 without a token', async () => {
    const { f, r, recipient, stranger, member } = await shared();
    expect((await bytes(exportOf(r.reportContentId, 'csv'), f.owner.token)).status).toBe(200);
    expect((await bytes(exportOf(r.reportContentId, 'csv'), await readOnlyToken(t, f.owner))).status).toBe(200);
    expect((await bytes(exportOf(r.reportContentId, 'xlsx'), recipient.token)).status).toBe(200);
    expectProblem(await t.get(exportOf(r.reportContentId, 'csv'), stranger.token), 404);
    expectProblem(await t.get(exportOf(r.reportContentId, 'csv'), member.token), 404);
    expectProblem(await t.get(exportOf('no-such-version', 'csv'), f.owner.token), 404);
    expectProblem(await t.get(exportOf(r.reportContentId, 'csv'), null), 401);
  });

  it('serves several exports at once, each complete', async () => {
    const { f, r } = await shared();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => bytes(exportOf(r.reportContentId, i % 2 ? 'csv' : 'xlsx'), f.owner.token)),
    );
    expect(results.map((res) => res.status)).toEqual(Array(6).fill(200));
    const csvs = results.filter((_, i) => i % 2).map((res) => res.body.toString('base64'));
    expect(new Set(csvs).size).toBe(1);
  });
});
