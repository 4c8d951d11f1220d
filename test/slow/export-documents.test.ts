/**
 * The PDFs a client is sent, end to end over HTTP (docs/exports.md): a 20-person month's Timesheet,
 * the Summary and the Invoice summary from the built-in templates, on A4 and on Letter, read back
 * with poppler: every entry and total searchable, the table's header row on every page, "Page N of
 * M" on each, the paper of the locale, the workspace's branding. With SCREENSHOTS_DIR set
 * (`npm run docs:screenshots`) their pages are also drawn as PNGs for docs/exports.md.
 */
import { execFile as execFileCb } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS } from '../helpers/browser.js';
import { addMember, addProjectMember, newWorkspace } from '../helpers/factories.js';
import { PEOPLE as TEAM } from '../helpers/pdf-documents.js';
import { readPdf } from '../helpers/poppler.js';
import { builtInTemplateId } from '../helpers/report-factories.js';
import { buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';

const execFile = promisify(execFileCb);

let t: TestContext;
let owner: TestUser;
let workspaceId: string;
let peopleIds: string[] = [];
const PEOPLE = 20;
const DESCRIPTIONS = [
  'Checkout redesign: payment step',
  'Sprint planning',
  'Accessibility audit of the settings pages',
  'Code review',
  'Customer call about the invoice layout',
  'Data migration dry run',
];

beforeAll(async () => {
  t = await buildTestApp();
  owner = await newUser(t, { name: 'Ana Souza', timezone: 'Europe/Berlin' });
  workspaceId = (await newWorkspace(t, owner, 'Acme Studio')).id;
  const patched = await t.patch(
    `/api/v1/workspaces/${workspaceId}`,
    { branding: { displayName: 'Acme Studio', accentColor: '#0f766e', footer: 'Acme Studio GmbH · Hauptstraße 1, 10115 Berlin' } },
    owner.token,
  );
  expect(patched.status, patched.text).toBe(200);
  const client = (await t.post(`/api/v1/workspaces/${workspaceId}/clients`, { name: 'Northwind Traders' }, owner.token)).body as {
    id: string;
  };
  const projects: string[] = [];
  for (const name of ['Website relaunch', 'Mobile app', 'Design system']) {
    const res = await t.post(
      `/api/v1/workspaces/${workspaceId}/projects`,
      { name, clientId: client.id, billableByDefault: true },
      owner.token,
    );
    expect(res.status).toBe(201);
    projects.push(res.body.id);
  }
  expect(
    (
      await t.put(
        `/api/v1/workspaces/${workspaceId}/rates`,
        { hourly: { currency: 'EUR', minor: 95_00 }, effectiveFrom: '2026-01-01' },
        owner.token,
      )
    ).status,
  ).toBe(200);
  const people: TestUser[] = [owner];
  // Twenty different people, as a team's month reads (the same name twice would look like a fault in the pictures).
  for (let i = 1; i < PEOPLE; i++) {
    const person = await newUser(t, { name: TEAM[i] ?? `Person ${i}` });
    await addMember(t, workspaceId, person, 'member', owner.token);
    for (const project of projects) await addProjectMember(t, project, person.id, owner.token);
    people.push(person);
  }
  peopleIds = people.map((person) => person.id);
  // Every person, every weekday of November 2026: one or two entries a day.
  const entries = [];
  for (const [p, person] of people.entries()) {
    for (let day = 2; day <= 27; day++) {
      const date = new Date(Date.UTC(2026, 10, day));
      if (date.getUTCDay() === 0 || date.getUTCDay() === 6) continue;
      const count = (p + day) % 3 === 0 ? 2 : 1;
      for (let k = 0; k < count; k++) {
        entries.push({
          workspaceId,
          userId: person.id,
          projectId: projects[(p + day + k) % projects.length],
          start: `2026-11-${String(day).padStart(2, '0')}T${String(8 + k * 4).padStart(2, '0')}:00:00Z`,
          minutes: 45 + ((p * 7 + day * 13 + k * 29) % 200),
          description: DESCRIPTIONS[(p + day + k) % DESCRIPTIONS.length],
        });
      }
    }
  }
  for (let i = 0; i < entries.length; i += 1000) {
    const res = await t.post('/api/v1/time-entries/batch', { entries: entries.slice(i, i + 1000) }, owner.token);
    expect(res.status, res.text).toBe(201);
  }
}, 300_000);
afterAll(() => t.close());

async function pdfOf(templateName: string, name: string, locale: string): Promise<Buffer> {
  const created = await t.post(
    '/api/v1/reports',
    {
      name,
      templateId: await builtInTemplateId(t, templateName),
      filters: { workspaceIds: [workspaceId], dateRange: { from: '2026-11-01', to: '2026-11-30' }, userIds: peopleIds },
      options: { locale, rounding: { mode: 'up', minutes: 15 } },
    },
    owner.token,
  );
  expect(created.status, created.text).toBe(201);
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/report-contents/${created.body.reportContentId}/export?format=pdf`,
    headers: { authorization: `Bearer ${owner.token}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.rawPayload;
}

/** Each page drawn as a PNG for docs/exports.md, when asked for. */
async function picture(pdf: Buffer, name: string, pages: number): Promise<void> {
  if (!SCREENSHOTS) return;
  const dir = await mkdtemp(path.join(tmpdir(), 'chronicle-pages-'));
  try {
    const file = path.join(dir, 'file.pdf');
    await writeFile(file, pdf);
    await execFile('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', String(pages), file, path.join(SCREENSHOTS, `export-${name}`)]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('PDFs of the built-in templates', () => {
  it('a 20-person month’s Timesheet: every row and total searchable, the header row and page numbers on every page', async () => {
    const pdf = await pdfOf('imesheet', 'Acme November timesheet', 'en');
    await picture(pdf, 'timesheet-a4', 2);
    const read = await readPdf(pdf);
    expect(read.pageSize).toContain('(A4)');
    expect(read.pages).toBeGreaterThan(5);
    const pages = read.text.split('\f').filter((page) => page.trim() !== '');
    expect(pages).toHaveLength(read.pages);
    for (const [i, page] of pages.entries()) {
      expect(page, `page ${i + 1}`).toContain(`Page ${i + 1} of ${read.pages}`);
      // The table runs from page 1 to its last page: its header row repeats on each of them.
      if (i < pages.length - 1) expect(page, `page ${i + 1}`).toMatch(/Date\s+Time\s+Person\s+Project\s+Description/);
    }
    // Long descriptions wrap inside their cells: each one's first words are on a line.
    for (const description of DESCRIPTIONS) expect(read.text).toContain(description.split(' ').slice(0, 2).join(' '));
    expect(read.text).toContain('Acme Studio');
    expect(read.text).toMatch(/Total/);
  }, 300_000);

  it('the Summary and the Invoice summary, on Letter in en-US, with their charts and totals', async () => {
    const summary = await pdfOf('Summary', 'Acme November summary', 'en-US');
    await picture(summary, 'summary-letter', 2);
    const readSummary = await readPdf(summary);
    expect(readSummary.pageSize).toContain('(letter)');
    expect(readSummary.text).toContain('Hours by day');
    expect(readSummary.text).toContain('Website relaunch');

    const invoice = await pdfOf('nvoice', 'Acme November invoice', 'en-US');
    const readInvoice = await readPdf(invoice);
    expect(readInvoice.text).toContain('Northwind Traders');
    expect(readInvoice.text).toMatch(/€[\d,]+\.\d\d/);
    await picture(invoice, 'invoice-letter', 1);

    const invoiceA4 = await pdfOf('nvoice', 'Acme November invoice', 'de');
    const readA4 = await readPdf(invoiceA4);
    expect(readA4.pageSize).toContain('(A4)');
    expect(readA4.text).toMatch(/[\d.]+,\d\d\s?€/);
    await picture(invoiceA4, 'invoice-a4-de', 1);
  }, 300_000);
});
