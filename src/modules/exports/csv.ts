/**
 * A version's dataset as CSV (docs/exports.md "CSV"): RFC 4180 with CRLF line ends, UTF-8 with a
 * byte order mark (so spreadsheet programs read names in any script correctly), one row per entry.
 */
import { stringify } from 'csv-stringify/sync';
import { toDecimal } from '../../../packages/money/src/index.js';
import type { Dataset, DatasetEntry } from './dataset.js';

export const CSV_COLUMNS = [
  'date',
  'start',
  'user',
  'client',
  'project',
  'description',
  'tags',
  'minutes',
  'billable',
  'billable_minutes',
  'rate',
  'amount',
  'currency',
] as const;

/** What a spreadsheet would read as the start of a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell no spreadsheet evaluates: text that would start a formula gets a leading `'`. */
export function inertCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** Rows are written in batches: one string per batch, never one for the whole dataset at once. */
const BATCH = 2_000;

function csvRow(e: DatasetEntry): string[] {
  const currency = e.amount?.currency ?? e.rate?.currency ?? '';
  return [
    e.date,
    e.time,
    e.user.name,
    e.client?.name ?? '',
    e.project?.name ?? '',
    e.description,
    e.tags.join(', '),
    String(e.minutes),
    e.billable ? 'true' : 'false',
    String(e.billableMinutes),
    e.rate ? toDecimal(e.rate) : '',
    e.amount ? toDecimal(e.amount) : '',
    currency,
  ].map(inertCell);
}

/** The whole file, as UTF-8 bytes. */
export function datasetCsv(dataset: Dataset): Uint8Array {
  const parts: Buffer[] = [Buffer.from('\ufeff', 'utf8'), Buffer.from(stringify([[...CSV_COLUMNS]], { record_delimiter: 'windows' }))];
  for (let i = 0; i < dataset.entries.length; i += BATCH) {
    const rows = dataset.entries.slice(i, i + BATCH).map(csvRow);
    parts.push(Buffer.from(stringify(rows, { record_delimiter: 'windows' }), 'utf8'));
  }
  return new Uint8Array(Buffer.concat(parts));
}
