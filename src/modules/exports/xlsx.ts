/**
 * A version's dataset as an Excel workbook (docs/exports.md "XLSX"), written by exceljs's streaming
 * writer so rows leave memory as they are written: the entries as typed cells on the first sheet
 * (dates as dates, times as times, minutes as numbers, money as numbers in the currency's format,
 * a frozen header row, widths that fit), the totals per project and per person on the second.
 */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { phrase } from '../../../packages/document/src/index.js';
import { currencyExponent, type Money } from '../../../packages/money/src/index.js';
import type { Dataset, DatasetEntry } from './dataset.js';

const HEADERS = [
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
] as const;

/** The Totals sheet's columns: their headings' English (a phrase) and their keys and widths. */
const TOTALS_COLUMNS = [
  ['Group', 'group', 12],
  ['Name', 'name', 30],
  ['Client', 'client', 24],
  ['Minutes', 'minutes', 10],
  ['Hours', 'hours', 10],
  ['Billable minutes', 'billable', 17],
  ['Amount', 'amount', 18],
  ['Currency', 'currency', 10],
] as const;

/** Widest a column is made, in characters; longer text wraps to the cell when opened. */
const MAX_WIDTH = 60;

/** `12345` minor units of EUR → 123.45: exact for every amount Chronicle stores (below 2^53 minor units). */
const major = (money: Money): number => money.minor / 10 ** currencyExponent(money.currency);

/** The number format of an amount in `currency`: grouped, with exactly its decimals and its code. */
function moneyFormat(currency: string): string {
  const exponent = currencyExponent(currency);
  const safeCode = currency.replace(/[^A-Z]/g, '');
  return `#,##0${exponent > 0 ? `.${'0'.repeat(exponent)}` : ''} "${safeCode}"`;
}

/** A `YYYY-MM-DD` date as Excel reads a date: its midnight in UTC, shown without a time. */
function dateCell(date: string): Date {
  return new Date(`${date}T00:00:00.000Z`);
}

/** `HH:MM` as a fraction of a day, the value Excel keeps for a time of day. */
function timeCell(time: string): number {
  const [h = 0, m = 0] = time.split(':').map(Number);
  return (h * 60 + m) / 1440;
}

interface Totals {
  name: string;
  detail: string;
  minutes: number;
  billableMinutes: number;
  amounts: Map<string, number>;
}

function addTo(groups: Map<string, Totals>, key: string, name: string, detail: string, e: DatasetEntry): void {
  let group = groups.get(key);
  if (!group) {
    group = { name, detail, minutes: 0, billableMinutes: 0, amounts: new Map() };
    groups.set(key, group);
  }
  group.minutes += e.minutes;
  group.billableMinutes += e.billableMinutes;
  if (e.amount) group.amounts.set(e.amount.currency, (group.amounts.get(e.amount.currency) ?? 0) + e.amount.minor);
}

/** Totals per project and per person, each largest first, then by name; their words in `locale`'s language. */
function totalsOf(entries: readonly DatasetEntry[], locale: string): { projects: Totals[]; people: Totals[]; all: Totals } {
  const projects = new Map<string, Totals>();
  const people = new Map<string, Totals>();
  const all: Totals = { name: phrase(locale, 'Total'), detail: '', minutes: 0, billableMinutes: 0, amounts: new Map() };
  const noProject = phrase(locale, 'No project');
  for (const e of entries) {
    addTo(projects, e.project?.id ?? '', e.project?.name ?? noProject, e.client?.name ?? '', e);
    addTo(people, e.user.id, e.user.name, '', e);
    all.minutes += e.minutes;
    all.billableMinutes += e.billableMinutes;
    if (e.amount) all.amounts.set(e.amount.currency, (all.amounts.get(e.amount.currency) ?? 0) + e.amount.minor);
  }
  const order = (a: Totals, b: Totals) => b.minutes - a.minutes || a.name.localeCompare(b.name);
  return { projects: [...projects.values()].sort(order), people: [...people.values()].sort(order), all };
}

function entryRow(e: DatasetEntry): ExcelJS.CellValue[] {
  const currency = e.amount?.currency ?? e.rate?.currency ?? null;
  return [
    dateCell(e.date),
    timeCell(e.time),
    e.user.name,
    e.client?.name ?? null,
    e.project?.name ?? null,
    e.description,
    e.tags.join(', '),
    e.minutes,
    e.billable,
    e.billableMinutes,
    e.rate ? major(e.rate) : null,
    e.amount ? major(e.amount) : null,
    currency,
  ];
}

/** Each column as wide as its longest value or heading (in a first pass), within bounds. */
function widthsOf(entries: readonly DatasetEntry[], headers: readonly string[]): number[] {
  const widths: number[] = headers.map((h) => h.length);
  widths[0] = Math.max(widths[0] ?? 0, 10);
  widths[1] = Math.max(widths[1] ?? 0, 5);
  const grow = (i: number, text: string) => {
    widths[i] = Math.min(MAX_WIDTH, Math.max(widths[i] ?? 0, text.length));
  };
  for (const e of entries) {
    grow(2, e.user.name);
    grow(3, e.client?.name ?? '');
    grow(4, e.project?.name ?? '');
    grow(5, e.description);
    grow(6, e.tags.join(', '));
    if (e.rate) grow(10, `${major(e.rate).toFixed(2)} ${e.rate.currency}`);
    if (e.amount) grow(11, `${major(e.amount).toFixed(2)} ${e.amount.currency}`);
  }
  return widths.map((w) => w + 2);
}

/**
 * The workbook as bytes. `createdAt` (the version's render time) is its creation date and every
 * zip member's time, so the same dataset always gives the same bytes.
 */
export async function datasetXlsx(dataset: Dataset, meta: { title: string; createdAt: Date }): Promise<Uint8Array> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  const Writer = pinnedWriter(meta.createdAt);
  const workbook = new Writer({ stream: out, useStyles: true, useSharedStrings: false, created: meta.createdAt, modified: meta.createdAt });
  workbook.creator = 'Chronicle';
  workbook.title = meta.title;

  // Sheets and headings in the version's language, as its document and PDF are.
  const words = (english: string) => phrase(dataset.locale, english);
  const headers = HEADERS.map(words);
  const sheet = workbook.addWorksheet(words('Entries'), { views: [{ state: 'frozen', ySplit: 1 }] });
  const widths = widthsOf(dataset.entries, headers);
  sheet.columns = headers.map((header, i) => ({ header, key: String(i), width: widths[i] ?? 10 }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for (const e of dataset.entries) {
    const row = sheet.addRow(entryRow(e));
    row.getCell(1).numFmt = 'yyyy-mm-dd';
    row.getCell(2).numFmt = 'hh:mm';
    const currency = e.amount?.currency ?? e.rate?.currency;
    if (currency) {
      row.getCell(11).numFmt = moneyFormat(currency);
      row.getCell(12).numFmt = moneyFormat(currency);
    }
    row.commit();
  }
  sheet.commit();

  const totals = totalsOf(dataset.entries, dataset.locale);
  const sheet2 = workbook.addWorksheet(words('Totals'), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet2.columns = TOTALS_COLUMNS.map(([english, key, width]) => {
    const header = words(english);
    return { header, key, width: Math.max(width, header.length) };
  });
  sheet2.getRow(1).font = { bold: true };
  sheet2.getRow(1).commit();
  const write = (group: string, t: Totals, bold = false) => {
    // One row per currency; a group without money has one row with the amount empty.
    const amounts: [string | null, number][] =
      t.amounts.size > 0 ? [...t.amounts.entries()].sort(([a], [b]) => a.localeCompare(b)) : [[null, 0]];
    for (const [currency, minor] of amounts) {
      const row = sheet2.addRow([
        group,
        t.name,
        t.detail || null,
        t.minutes,
        Math.round((t.minutes / 60) * 100) / 100,
        t.billableMinutes,
        currency ? major({ currency, minor }) : null,
        currency,
      ]);
      row.getCell(5).numFmt = '0.00';
      if (currency) row.getCell(7).numFmt = moneyFormat(currency);
      if (bold) row.font = { bold: true };
      row.commit();
    }
  };
  for (const t of totals.projects) write(words('Project'), t);
  for (const t of totals.people) write(words('Person'), t);
  write(words('Report'), totals.all, true);
  sheet2.commit();
  await workbook.commit();
  await finished;
  return new Uint8Array(Buffer.concat(chunks));
}

/** What exceljs's streaming writer has beyond its typed API: its archive, and the steps its constructor takes. */
interface WriterInternals {
  zip: undefined | { append: (source: unknown, data: Record<string, unknown>) => unknown };
  addThemes(): Promise<void>;
  addOfficeRels(): Promise<void>;
}

type Writer = ExcelJS.stream.xlsx.WorkbookWriter & WriterInternals;

/**
 * exceljs stamps each zip member with the time it is written; the version's time instead makes
 * the file a function of the dataset alone. Its constructor already writes two members, so the
 * archive is pinned from the first of those steps on. The archive is not part of exceljs's typed
 * API: this reaches it by name and fails loudly if a release renames it.
 */
function pinnedWriter(
  date: Date,
): new (options: Partial<ExcelJS.stream.xlsx.WorkbookStreamWriterOptions> & { created: Date; modified: Date }) => Writer {
  const Base = ExcelJS.stream.xlsx.WorkbookWriter as unknown as new (options: object) => Writer;
  const pin = (writer: WriterInternals) => {
    const zip = writer.zip;
    if (typeof zip?.append !== 'function') throw new Error('exceljs no longer exposes its archive as `zip`');
    if ((zip as { pinned?: boolean }).pinned) return;
    const append = zip.append.bind(zip);
    zip.append = (source, data) => append(source, { ...data, date });
    (zip as { pinned?: boolean }).pinned = true;
  };
  return class extends Base {
    override addThemes(): Promise<void> {
      pin(this);
      return super.addThemes();
    }
    override addOfficeRels(): Promise<void> {
      pin(this);
      return super.addOfficeRels();
    }
  };
}
