/**
 * An export's rate and amount columns (docs/cli.md "Rates and amounts"): found by their headers in
 * each tool's variants, read into minor units by the currency's exponent without floats, and
 * compared with the rate Chronicle applies to each entry (all four levels, a change within the
 * file's period, a far time zone, no rate). test/slow/cli.test.ts runs the same against a server.
 */
import { describe, expect, it } from 'vitest';
import { parseMinor, type RateEntry } from '../../packages/money/src/index.js';
import { findMoneyColumns } from '../../packages/import/src/formats.js';
import { planImport, type ImportDirectory } from '../../packages/import/src/plan.js';
import { checkRates, RATES_NOT_VISIBLE, type RateBook } from '../../packages/import/src/rate-check.js';
import { readExport } from '../../packages/import/src/read-export.js';

describe('money columns', () => {
  it("finds each tool's rate and amount headers, with the currency they name", () => {
    const names = (header: string) => findMoneyColumns(header.split(','));
    expect(names('User,Email,Duration,Tags,Amount (USD)')).toEqual({ amount: { index: 4, name: 'Amount (USD)', currency: 'USD' } });
    expect(names('Email,Amount ()')).toEqual({ amount: { index: 1, name: 'Amount ()', currency: null } });
    expect(names('Email,Hourly rate,Billable amount (eur),Currency')).toEqual({
      rate: { index: 1, name: 'Hourly rate', currency: null },
      amount: { index: 2, name: 'Billable amount (eur)', currency: 'EUR' },
      currency: 3,
    });
    expect(names('Email,Cost Rate (EUR),Cost Amount (EUR),Billable Rate (EUR),Billable Amount (EUR)')).toEqual({
      rate: { index: 3, name: 'Billable Rate (EUR)', currency: 'EUR' },
      amount: { index: 4, name: 'Billable Amount (EUR)', currency: 'EUR' },
    });
    expect(names('Email,Amount of work,Rated,Billable')).toEqual({});
  });

  it("keeps each row's cells as written, in the header's currency or the row's", () => {
    const toggl = readExport(
      [
        'Email,Billable,Start date,Start time,Duration,Hourly rate,Billable amount,Currency',
        'a@x.io,Yes,2026-03-02,09:00,01:00:00,95.00,95.00,chf',
        'a@x.io,Yes,2026-03-02,10:00,01:00:00, 95 ,,',
      ].join('\n'),
      'toggl',
      { timezone: 'UTC' },
    );
    expect(toggl.moneyColumns).toEqual({ rate: 'Hourly rate', amount: 'Billable amount' });
    expect(toggl.rows.map((r) => r.money)).toEqual([
      { rate: { text: '95.00', currency: 'CHF' }, amount: { text: '95.00', currency: 'CHF' } },
      { rate: { text: '95', currency: null }, amount: { text: '', currency: null } },
    ]);
    const plain = readExport('Email,Start date,Start time,Duration\na@x.io,2026-03-02,09:00,01:00:00', 'toggl', { timezone: 'UTC' });
    expect(plain.moneyColumns).toEqual({});
    expect(plain.rows[0]?.money).toBeUndefined();
  });

  it("reads decimals into minor units by the currency's exponent, digit by digit", () => {
    expect(parseMinor('95.00', 'EUR')).toBe(9500);
    expect(parseMinor('95', 'EUR')).toBe(9500);
    expect(parseMinor('95,5', 'EUR')).toBe(9550);
    expect(parseMinor(' 0.29 ', 'USD')).toBe(29);
    expect(parseMinor('4.35', 'USD')).toBe(435);
    expect(parseMinor('12000', 'JPY')).toBe(12000);
    expect(parseMinor('12000.00', 'JPY')).toBe(12000);
    expect(parseMinor('1.005', 'KWD')).toBe(1005);
    expect(parseMinor('1.5', 'KWD')).toBe(1500);
    expect(parseMinor('007.10', 'EUR')).toBe(710);
    expect(parseMinor('999999999999999', 'JPY')).toBe(999999999999999);
  });

  it('refuses what it cannot read exactly', () => {
    for (const bad of ['', '1,234.50', '-5', '9e3', '€90', '95.5.0', '.5', 'NaN', '1 000']) expect(parseMinor(bad, 'EUR'), bad).toBeNull();
    // More decimals than the currency has: only zeros after a point.
    expect(parseMinor('95.001', 'EUR')).toBeNull();
    expect(parseMinor('12000.50', 'JPY')).toBeNull();
    // After a comma they may be grouping: 1,200 is not read as 1.20.
    expect(parseMinor('1,200', 'EUR')).toBeNull();
    expect(parseMinor('1,200', 'KWD')).toBe(1200);
    expect(parseMinor('9999999999999999', 'JPY')).toBeNull();
  });
});

const eur = (minor: number) => ({ currency: 'EUR', minor });
const HEADER = 'Email,Project,Billable,Start Date,Start Time,Duration (h),Billable Rate (EUR),Billable Amount (EUR)';
const directory: ImportDirectory = {
  callerId: 'u1',
  members: [
    { userId: 'u1', email: 'o@x.io', role: 'owner' },
    { userId: 'u2', email: 'b@x.io', role: 'member' },
  ],
  projects: [
    { id: 'p1', name: 'Web', clientId: null },
    { id: 'p2', name: 'Ops', clientId: null },
  ],
  clients: [],
  projectMembers: () => Promise.resolve(['u2']),
};

async function check(lines: string[], book: RateBook | null, cap?: number, header = HEADER) {
  const read = readExport([header, ...lines].join('\n'), 'clockify', { timezone: 'UTC' });
  expect(read.failed).toEqual([]);
  const plan = await planImport(read, directory, { createProjects: true, createProjectsHint: '--create-projects' });
  return checkRates(read, plan, book, { locale: 'en', ...(cap === undefined ? {} : { cap }) });
}

const rate = (effectiveFrom: string, minor: number | null, projectId: string | null = null, userId: string | null = null): RateEntry => ({
  projectId,
  userId,
  effectiveFrom,
  hourly: minor === null ? null : eur(minor),
});
const book = (rates: RateEntry[], timezones: Record<string, string> = { u1: 'UTC', u2: 'UTC' }): RateBook => ({
  currency: 'EUR',
  rates,
  timezones: new Map(Object.entries(timezones)),
});

describe('checkRates', () => {
  it('says nothing when the export agrees, and compares billable rows only', async () => {
    const result = await check(
      [
        'o@x.io,Web,Yes,2026-03-02,09:00,01:30:00,100.00,150.00',
        'o@x.io,Web,No,2026-03-02,11:00,01:00:00,0.00,0.00',
        'o@x.io,Web,Yes,2026-03-02,12:00,00:40:00,100,66.67',
        'o@x.io,Web,Yes,2026-03-02,13:00,00:40:00,,',
      ],
      book([rate('2026-01-01', 10000)]),
    );
    expect(result).toEqual({ warnings: [], notes: [] });
  });

  it('names the line, both values and the level, at each of the four levels', async () => {
    const rates = [
      rate('2026-01-01', 10000),
      rate('2026-01-01', 11000, null, 'u2'),
      rate('2026-01-01', 12000, 'p2'),
      rate('2026-01-01', 13000, 'p2', 'u2'),
    ];
    const result = await check(
      [
        'o@x.io,Web,Yes,2026-03-02,09:00,01:00:00,95.00,95.00',
        'b@x.io,,Yes,2026-03-02,09:00,01:00:00,95.00,95.00',
        'o@x.io,Ops,Yes,2026-03-02,09:00,01:00:00,95.00,95.00',
        'b@x.io,Ops,Yes,2026-03-02,09:00,01:30:00,130,195.00',
      ],
      book(rates),
    );
    expect(result.notes).toEqual([]);
    expect(result.warnings).toEqual([
      { line: 2, column: null, message: "the export's rate €95.00/h differs from Chronicle's €100.00/h (workspace rate)" },
      {
        line: 2,
        column: null,
        message: "the export's amount €95.00 differs from Chronicle's €100.00 (60 minutes at €100.00/h (workspace rate))",
      },
      { line: 3, column: null, message: "the export's rate €95.00/h differs from Chronicle's €110.00/h (workspace member rate)" },
      {
        line: 3,
        column: null,
        message: "the export's amount €95.00 differs from Chronicle's €110.00 (60 minutes at €110.00/h (workspace member rate))",
      },
      { line: 4, column: null, message: "the export's rate €95.00/h differs from Chronicle's €120.00/h (project rate)" },
      {
        line: 4,
        column: null,
        message: "the export's amount €95.00 differs from Chronicle's €120.00 (60 minutes at €120.00/h (project rate))",
      },
    ]);
  });

  it("follows a rate change within the file's period, at 00:00 in the user's zone", async () => {
    const rates = [rate('2026-01-01', 10000), rate('2026-03-02', 12000)];
    const lines = [
      'o@x.io,Web,Yes,2026-03-01,23:30,00:30:00,100.00,50.00',
      'o@x.io,Web,Yes,2026-03-02,00:30,00:30:00,100.00,50.00',
      'o@x.io,Web,Yes,2026-03-03,09:00,00:30:00,120.00,60.00',
    ];
    // In UTC the change is between the first two lines.
    expect((await check(lines, book(rates))).warnings.map((w) => [w.line, w.message])).toEqual([
      [3, "the export's rate €100.00/h differs from Chronicle's €120.00/h (workspace rate)"],
      [3, "the export's amount €50.00 differs from Chronicle's €60.00 (30 minutes at €120.00/h (workspace rate))"],
    ]);
    // For a user in Kiritimati (UTC+14), 2 March starts at 10:00 UTC on 1 March: both are after it.
    const far = await check(lines, book(rates, { u1: 'Pacific/Kiritimati' }));
    expect(far.warnings.map((w) => w.line)).toEqual([2, 2, 3, 3]);
  });

  it('says when Chronicle has no rate, and takes a zero as no rate', async () => {
    const result = await check(
      ['o@x.io,Web,Yes,2026-03-02,09:00,01:00:00,95.00,95.00', 'o@x.io,Web,Yes,2026-03-02,11:00,01:00:00,0.00,0.00'],
      book([rate('2026-01-01', 10000), rate('2026-02-01', null)]),
    );
    expect(result.warnings.map((w) => w.message)).toEqual([
      "the export's rate €95.00/h differs from Chronicle's: no rate applies to this entry",
      "the export's amount €95.00 differs from Chronicle's: no rate applies to this entry, so no amount",
    ]);
  });

  it('compares an entry whose user’s zone is not visible only where the zone cannot matter', async () => {
    const rates = [rate('2026-01-01', 10000), rate('2026-03-02', 12000)];
    const result = await check(
      ['b@x.io,,Yes,2026-03-01,23:30,00:30:00,100.00,50.00', 'b@x.io,,Yes,2026-03-05,09:00,00:30:00,100.00,50.00'],
      book(rates, { u1: 'UTC' }),
    );
    expect(result.warnings.map((w) => w.line)).toEqual([3, 3]);
    expect(result.notes).toEqual([
      '1 line near a rate change of another user whose time zone is not visible to you; its rate and amount were not compared',
    ]);
  });

  it('names a cell it cannot read with its column, and compares nothing in another currency', async () => {
    const bad = await check(['o@x.io,Web,Yes,2026-03-02,09:00,01:00:00,1.000.00,abc'], book([rate('2026-01-01', 10000)]));
    expect(bad.warnings).toEqual([
      { line: 2, column: 'Billable Rate (EUR)', message: 'cannot read "1.000.00" as an amount in EUR; it was not compared' },
      { line: 2, column: 'Billable Amount (EUR)', message: 'cannot read "abc" as an amount in EUR; it was not compared' },
    ]);
    const usd = await check(
      ['o@x.io,Web,Yes,2026-03-02,09:00,01:00:00,95,95'],
      book([rate('2026-01-01', 10000)]),
      undefined,
      HEADER.replaceAll('EUR', 'USD'),
    );
    expect(usd).toEqual({
      warnings: [],
      notes: ["the export's rates or amounts are in USD and Chronicle's in EUR; those were not compared"],
    });
  });

  it('compares with a rate in the currency it was set in, after the workspace changed its own', async () => {
    const changed: RateBook = { ...book([rate('2026-01-01', 10000)]), currency: 'CHF' };
    const header = HEADER.replaceAll(' (EUR)', '');
    const result = await check(['o@x.io,Web,Yes,2026-03-02,09:00,01:00:00,95,95'], changed, undefined, header);
    expect(result.warnings.map((w) => w.message)).toEqual([
      "the export's rate €95.00/h differs from Chronicle's €100.00/h (workspace rate)",
      "the export's amount €95.00 differs from Chronicle's €100.00 (60 minutes at €100.00/h (workspace rate))",
    ]);
    const inChf = await check(['o@x.io,Web,Yes,2026-03-02,09:00,01:00:00,95,95'], changed, undefined, HEADER.replaceAll('EUR', 'CHF'));
    expect(inChf.notes).toEqual(["the export's rates or amounts are in CHF and Chronicle's in EUR; those were not compared"]);
  });

  it('reads a header without a currency in the workspace’s, by its exponent', async () => {
    const jpy: RateBook = { currency: 'JPY', rates: [rate('2026-01-01', 12000)], timezones: new Map([['u1', 'UTC']]) };
    jpy.rates[0]!.hourly = { currency: 'JPY', minor: 12000 };
    const result = await check(
      ['o@x.io,Web,Yes,2026-03-02,09:00,01:00:00,12000,12000', 'o@x.io,Web,Yes,2026-03-02,11:00,01:00:00,9000.00,9000'],
      jpy,
      undefined,
      HEADER.replaceAll(' (EUR)', ''),
    );
    expect(result.warnings.map((w) => [w.line, w.message])).toEqual([
      [3, "the export's rate ¥9,000/h differs from Chronicle's ¥12,000/h (workspace rate)"],
      [3, "the export's amount ¥9,000 differs from Chronicle's ¥12,000 (60 minutes at ¥12,000/h (workspace rate))"],
    ]);
  });

  it('says once that rates are not visible, and nothing for a file without money columns', async () => {
    expect(await check(['o@x.io,Web,Yes,2026-03-02,09:00,01:00:00,95,95'], null)).toEqual({ warnings: [], notes: [RATES_NOT_VISIBLE] });
    expect(
      await check(
        ['o@x.io,Web,Yes,2026-03-02,09:00,01:00:00'],
        null,
        undefined,
        'Email,Project,Billable,Start Date,Start Time,Duration (h)',
      ),
    ).toEqual({
      warnings: [],
      notes: [],
    });
  });

  it('keeps the first warnings of each kind and counts the rest', async () => {
    const lines = Array.from({ length: 120 }, (_, i) => `o@x.io,Web,Yes,2026-03-02,09:00,00:30:00,9${i % 10},1.000.0`);
    const result = await check(lines, book([rate('2026-01-01', 10000)]), 50);
    expect(result.warnings).toHaveLength(100);
    expect(result.notes).toEqual(['and 70 more lines whose rate differs', 'and 70 more rate or amount cells that cannot be read']);
  });
});
