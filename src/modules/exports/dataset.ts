/**
 * A version's frozen dataset (docs/exports.md "The frozen dataset"): the rows it was rendered from,
 * stored with it and never changed, so every export of the version is exactly what it showed.
 * Encoded in a render worker (render-worker.ts), decoded there too: a dataset of 200,000 entries is
 * tens of megabytes of JSON, never parsed on the main thread.
 *
 * Format 2 (written since 30 November 2026) keeps the entries as the render statement delivered
 * them, the very tuples the template was rendered over, with the names the render gave them;
 * format 1 kept one object per entry, names and money repeated in each. Both are read.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Money } from '../../../packages/money/src/index.js';
import { renderedEntries, type EntryNaming, type EntryTuple, type EntryView } from '../../render/render-context.js';

/** The format new versions store (schema.ts `reportDatasets.format`). */
export const DATASET_FORMAT = 2;

/** Whether this release reads a stored dataset of `format`. */
export const readsDatasetFormat = (format: number): boolean => format === 1 || format === 2;

/**
 * gzip's level for a dataset: 3 makes format 2's JSON of 5,000 entries about 128 KB in about 5 ms,
 * where 6 made 113 KB in 11 ms (and format 1's, at 6, 149 KB in 13 ms).
 */
const GZIP_LEVEL = 3;

type Named = { id: string; name: string };

/** One entry as the version showed it; money null where the render showed none (billing.md). */
export interface DatasetEntry {
  id: string;
  /** ISO 8601 instant in UTC. */
  start: string;
  /** Date and time of the start in the owner's time zone. */
  date: string;
  time: string;
  user: Named;
  project: Named | null;
  client: Named | null;
  tags: string[];
  description: string;
  minutes: number;
  billable: boolean;
  billableMinutes: number;
  rate: Money | null;
  amount: Money | null;
}

export interface Dataset {
  /** The format it was stored in; every format reads as this shape. */
  format: 1 | 2;
  /** The owner's time zone, which `date` and `time` are in. */
  timezone: string;
  /** The report's locale when the version was rendered (its PDF's paper size and formats). */
  locale: string;
  /** Whether the version showed money; when false every rate and amount is null. */
  moneyVisible: boolean;
  /** Sorted by start, then id. */
  entries: DatasetEntry[];
}

/** A dataset as stored: gzipped JSON in base64 (schema.ts `reportDatasets`). */
export interface EncodedDataset {
  entryCount: number;
  data: string;
}

/** What a version's dataset records beside its entries. */
export interface DatasetFrame {
  timezone: string;
  locale: string;
  /** The render's names and whether it showed money (its frame's `workspaces` and `aggregates`). */
  naming: EntryNaming;
}

/** The names format 2 keeps, as `renderedEntries` reads them. */
interface StoredNames {
  workspaces: Named[];
  clients: Named[];
  projects: (Named & { clientId: string | null })[];
  users: Named[];
}

const named = (list: readonly { id: string | null; name: string }[]): Named[] =>
  list.flatMap((g) => (g.id === null ? [] : [{ id: g.id, name: g.name }]));

/**
 * Encodes a version's dataset from `entriesJson`, the render statement's JSON array of entry
 * tuples (report-data.repository.ts), as it is: no entry is parsed or written again. Its money
 * fields are null wherever the version shows none, because the statement prices only a render that
 * shows money (report-render.ts `pricing`); `decodeDataset` nulls them again all the same.
 */
export function encodeDataset(entriesJson: string, frame: DatasetFrame, entryCount: number): EncodedDataset {
  const { aggregates, workspaces } = frame.naming;
  const names: StoredNames = {
    workspaces: named(workspaces),
    clients: named(aggregates.byClient ?? []),
    projects: aggregates.byProject.flatMap((p) => (p.id === null ? [] : [{ id: p.id, name: p.name, clientId: p.clientId ?? null }])),
    users: named(aggregates.byUser),
  };
  const head = JSON.stringify({
    format: DATASET_FORMAT,
    timezone: frame.timezone,
    locale: frame.locale,
    moneyVisible: aggregates.moneyVisible ?? false,
    names,
  });
  const json = `${head.slice(0, -1)},"entries":${entriesJson}}`;
  return { entryCount, data: gzipSync(json, { level: GZIP_LEVEL }).toString('base64') };
}

/** The stored dataset; throws for data this release cannot read (a row written by a later format). */
export function decodeDataset(data: string): Dataset {
  const parsed = JSON.parse(gunzipSync(Buffer.from(data, 'base64')).toString('utf8')) as Record<string, unknown>;
  if (!Array.isArray(parsed.entries)) throw new Error('a dataset without entries');
  if (parsed.format === 1) return parsed as unknown as Dataset;
  if (parsed.format !== 2) throw new Error(`a dataset of format ${String(parsed.format)}, which this release cannot read`);
  const { timezone, locale, moneyVisible, names } = parsed as {
    timezone: string;
    locale: string;
    moneyVisible: boolean;
    names: StoredNames;
  };
  const views = renderedEntries(parsed.entries as EntryTuple[], {
    workspaces: names.workspaces,
    aggregates: { moneyVisible, byClient: names.clients, byProject: names.projects, byUser: names.users },
  });
  return { format: 2, timezone, locale, moneyVisible, entries: views.map(datasetEntry) };
}

/** An entry as a dataset holds it: its view without the workspace. */
function datasetEntry(e: EntryView): DatasetEntry {
  return {
    id: e.id,
    start: e.start,
    date: e.date,
    time: e.time,
    user: e.user,
    project: e.project,
    client: e.client,
    tags: e.tags,
    description: e.description,
    minutes: e.minutes,
    billable: e.billable,
    billableMinutes: e.billableMinutes,
    rate: e.rate,
    amount: e.amount,
  };
}
