/**
 * A version's frozen dataset (docs/exports.md "The frozen dataset"): the rows it was rendered from,
 * stored with it and never changed, so every export of the version is exactly what it showed.
 * Built and encoded in a render worker (render-worker.ts), decoded there too: a dataset of 200,000
 * entries is tens of megabytes of JSON, never parsed on the main thread.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Money } from '../../../packages/money/src/index.js';
import type { EntryView } from '../../render/render-context.js';

/** The dataset's format, stored with it: a reader refuses a format it does not know. */
export const DATASET_FORMAT = 1;

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
  format: typeof DATASET_FORMAT;
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

export function datasetOf(entries: readonly EntryView[], frame: { timezone: string; locale: string; moneyVisible: boolean }): Dataset {
  const { timezone, locale, moneyVisible } = frame;
  return {
    format: DATASET_FORMAT,
    timezone,
    locale,
    moneyVisible,
    entries: entries.map((e) => ({
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
    })),
  };
}

export function encodeDataset(dataset: Dataset): EncodedDataset {
  return { entryCount: dataset.entries.length, data: gzipSync(JSON.stringify(dataset), { level: 6 }).toString('base64') };
}

/** The stored dataset; throws for data this release cannot read (a row written by a later format). */
export function decodeDataset(data: string): Dataset {
  const parsed = JSON.parse(gunzipSync(Buffer.from(data, 'base64')).toString('utf8')) as { format?: unknown; entries?: unknown };
  if (parsed.format !== DATASET_FORMAT || !Array.isArray(parsed.entries)) {
    throw new Error(`a dataset of format ${String(parsed.format)}, which this release cannot read`);
  }
  return parsed as Dataset;
}
