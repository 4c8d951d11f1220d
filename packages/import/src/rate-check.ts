/**
 * An export's rates and amounts against Chronicle's (billing.md §6, docs/cli.md "Rates and
 * amounts"): for each row the import sends that the file marks billable, the export's rate is
 * compared with the rate Chronicle applies to the entry (`appliedRate`, packages/money) and its
 * amount with the entry's amount, round_half_up(minutes × rate / 60). A difference is a warning on
 * the row's line; nothing of it is imported. Pure: rate-book.ts loads the rates.
 */
import { amountOf, appliedRate, formatMoney, parseMinor, type Money, type RateEntry, type RateLevel } from '../../money/src/index.js';
import type { MoneyField } from './formats.js';
import type { ImportPlan } from './plan.js';
import type { ExportMoney, ReadResult, RowProblem } from './read-export.js';

/** What the comparison needs from the workspace: its currency, its rates, its people's time zones. */
export interface RateBook {
  /** The workspace's currency, which its rates are in; a money cell naming no currency is read in it. */
  currency: string;
  /** The rows of every level the import's entries fall under. */
  rates: readonly RateEntry[];
  /** The time zone of each user whose zone the importing user may read. */
  timezones: ReadonlyMap<string, string>;
}

export interface RateCheck {
  /** The differences and unreadable cells, each on its line; at most `cap` of each kind. */
  warnings: RowProblem[];
  /** What was not compared, and how many warnings of a kind were left out, once each. */
  notes: string[];
}

export interface RateCheckOptions {
  /** The importing user's locale, for printing money. */
  locale: string;
  /** Warnings kept per kind (rate, amount, unreadable cell); the rest are counted. Default 50. */
  cap?: number;
}

export const RATES_NOT_VISIBLE = 'rates are not visible to you; rate and amount columns were not compared';

const LEVEL_WORDS: Record<RateLevel, string> = {
  projectMember: 'project member rate',
  project: 'project rate',
  workspaceMember: 'workspace member rate',
  workspace: 'workspace rate',
};

const HOUR = 3_600_000;

/** Whether the file has a rate or amount column at all. */
export const hasMoneyColumns = (read: ReadResult): boolean => Object.keys(read.moneyColumns).length > 0;

/**
 * Compares the rows the plan sends with the book; `book` null means the rates are not visible to
 * the importing user, which is said once.
 */
export function checkRates(read: ReadResult, plan: ImportPlan, book: RateBook | null, options: RateCheckOptions): RateCheck {
  if (!hasMoneyColumns(read)) return { warnings: [], notes: [] };
  if (!book) return { warnings: [], notes: [RATES_NOT_VISIBLE] };
  const cap = options.cap ?? 50;
  const money = (m: Money) => formatMoney(m, options.locale);
  const kept = { rate: [] as RowProblem[], amount: [] as RowProblem[], unreadable: [] as RowProblem[] };
  const more = { rate: 0, amount: 0, unreadable: 0 };
  const warn = (kind: keyof typeof kept, problem: RowProblem) => {
    if (kept[kind].length < cap) kept[kind].push(problem);
    else more[kind] += 1;
  };
  const currencies = { theirs: new Set<string>(), ours: new Set<string>() };
  let zoneUnknown = 0;

  for (const { row, userId, project } of plan.toSend) {
    if (!row.money || row.billable !== true) continue;
    const start = new Date(row.start);
    const projectId = project && 'id' in project ? project.id : null;
    let timezone = book.timezones.get(userId);
    if (timezone === undefined) {
      // A user's zone the importing user cannot read matters only near a rate's first day.
      if (nearRateChange(start, userId, projectId, book.rates)) {
        zoneUnknown += 1;
        continue;
      }
      timezone = 'UTC';
    }
    const applied = appliedRate({ start, userId, projectId, timezone }, book.rates);
    const chronicleRate = applied ? `${money(applied.hourly)}/h (${LEVEL_WORDS[applied.level]})` : null;

    // Chronicle's rate keeps the currency it was set in (docs/api.md "Rates"); without one, the workspace's.
    const ourCurrency = applied?.hourly.currency ?? book.currency;
    const minorOf = (field: MoneyField): Money | null => {
      const cell: ExportMoney | undefined = row.money?.[field];
      if (!cell || cell.text === '') return null;
      const currency = cell.currency ?? ourCurrency;
      if (currency !== ourCurrency) {
        currencies.theirs.add(currency);
        currencies.ours.add(ourCurrency);
        return null;
      }
      const minor = parseMinor(cell.text, currency);
      if (minor === null)
        warn('unreadable', {
          line: row.line,
          column: read.moneyColumns[field] ?? field,
          message: `cannot read "${cell.text}" as an amount in ${currency}; it was not compared`,
        });
      return minor === null ? null : { currency, minor };
    };

    const rate = minorOf('rate');
    if (rate !== null && rate.minor !== (applied?.hourly.minor ?? 0)) {
      const theirs = `${money(rate)}/h`;
      warn('rate', {
        line: row.line,
        column: null,
        message:
          chronicleRate === null
            ? `the export's rate ${theirs} differs from Chronicle's: no rate applies to this entry`
            : `the export's rate ${theirs} differs from Chronicle's ${chronicleRate}`,
      });
    }
    const amount = minorOf('amount');
    const ours = applied ? amountOf(row.minutes, applied.hourly) : null;
    if (amount !== null && amount.minor !== (ours?.minor ?? 0)) {
      const theirs = money(amount);
      warn('amount', {
        line: row.line,
        column: null,
        message:
          !ours || !chronicleRate
            ? `the export's amount ${theirs} differs from Chronicle's: no rate applies to this entry, so no amount`
            : `the export's amount ${theirs} differs from Chronicle's ${money(ours)} (${row.minutes} minutes at ${chronicleRate})`,
      });
    }
  }

  const notes: string[] = [];
  if (currencies.theirs.size > 0) {
    const list = (set: Set<string>) => [...set].sort().join(', ');
    notes.push(
      `the export's rates or amounts are in ${list(currencies.theirs)} and Chronicle's in ${list(currencies.ours)}; those were not compared`,
    );
  }
  if (zoneUnknown > 0)
    notes.push(
      `${lines(zoneUnknown)} near a rate change of another user whose time zone is not visible to you; ${zoneUnknown === 1 ? 'its' : 'their'} rate and amount were not compared`,
    );
  if (more.rate > 0) notes.push(`and ${more.rate} more ${more.rate === 1 ? 'line' : 'lines'} whose rate differs`);
  if (more.amount > 0) notes.push(`and ${more.amount} more ${more.amount === 1 ? 'line' : 'lines'} whose amount differs`);
  if (more.unreadable > 0) notes.push(`and ${more.unreadable} more rate or amount cells that cannot be read`);
  const warnings = [...kept.unreadable, ...kept.rate, ...kept.amount].sort((a, b) => a.line - b.line);
  return { warnings, notes };
}

const lines = (n: number) => `${n} ${n === 1 ? 'line' : 'lines'}`;

/**
 * Whether the entry starts within reach of the first instant of a rate of its levels in some
 * time zone (offsets run from UTC-12 to UTC+14, and a DST change may move a day's start an hour):
 * only there does the zone of its user change which rate is in force.
 */
function nearRateChange(start: Date, userId: string, projectId: string | null, rates: readonly RateEntry[]): boolean {
  const at = start.getTime();
  return rates.some((r) => {
    if ((r.userId !== null && r.userId !== userId) || (r.projectId !== null && r.projectId !== projectId)) return false;
    const midnight = Date.parse(`${r.effectiveFrom}T00:00:00Z`);
    return at >= midnight - 15 * HOUR && at < midnight + 15 * HOUR;
  });
}
