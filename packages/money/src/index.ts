/**
 * Amounts of money as Chronicle carries them (billing.md §1, docs/api.md "Rates"): `{ currency,
 * minor }`, an integer count of the currency's minor unit by its ISO 4217 exponent, printed with
 * Intl.NumberFormat from a decimal string, never through a float. The server's reports and the web
 * app both print money with this package, so a document and a screen agree on every currency. The
 * rate rule (rate-for.ts) lives here too, shared by the server's tests and the importers.
 */

/** An amount: an ISO 4217 code and a count of its minor unit. */
export interface Money {
  currency: string;
  minor: number;
}

/** The most a rate may be, in minor units (the API's bound; 1,000,000.00 of a two-decimal currency). */
export const MAX_RATE_MINOR = 100_000_000;

/**
 * ISO 4217's exponents other than 2. Intl's own fraction digits come from CLDR, which differs from
 * ISO for some codes (CLDR prints HUF, IDR or COP without decimals, IQD with none where ISO has 3),
 * so the minor unit is taken from this list, not from Intl. XDR and XSU have no minor unit in ISO
 * 4217: their amounts are counted in whole units.
 */
const EXPONENTS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XDR: 0,
  XOF: 0,
  XPF: 0,
  XSU: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

/** How many decimals the currency's minor unit has (EUR 2, JPY 0, KWD 3). */
export function currencyExponent(currency: string): number {
  return EXPONENTS[currency] ?? 2;
}

/** `minor` written as a decimal of the currency (`12345` EUR → `123.45`), digit by digit. */
export function toDecimal(money: Money): `${number}` {
  const exponent = currencyExponent(money.currency);
  const digits = String(Math.trunc(Math.abs(money.minor))).padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  return `${money.minor < 0 ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}` as `${number}`;
}

/**
 * Formatters are costly to make: one per locale and currency, kept, at most this many at once,
 * each with the texts it has made (4,096 in all). A report prints the same few amounts again and again (a rate
 * times a rounded duration), and formatting one takes about a microsecond.
 */
interface KeptFormat {
  format: Intl.NumberFormat;
  texts: Map<number, string>;
}
const formats = new Map<string, Map<string, KeptFormat>>();
let formatCount = 0;
const MAX_FORMATS = 256;
/** Texts kept in all, across formats: a bound on the memory they take whatever the mix of locales and currencies. */
const MAX_TEXTS = 4_096;
let keptTexts = 0;

/** The amount in `locale` (`€1,234.50`, `1.234,50 €`, `¥12,000`), with exactly the currency's decimals. */
export function formatMoney(money: Money, locale: string): string {
  // Keyed by locale, then currency: a lookup makes no string (a report formats thousands of amounts).
  let byCurrency = formats.get(locale);
  let kept = byCurrency?.get(money.currency);
  if (!kept) {
    const digits = currencyExponent(money.currency);
    const format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: money.currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    if (formatCount >= MAX_FORMATS) {
      formats.clear();
      formatCount = 0;
      keptTexts = 0;
      byCurrency = undefined;
    }
    if (!byCurrency) formats.set(locale, (byCurrency = new Map<string, KeptFormat>()));
    kept = { format, texts: new Map() };
    byCurrency.set(money.currency, kept);
    formatCount += 1;
  }
  let text = kept.texts.get(money.minor);
  if (text === undefined) {
    // A decimal string is formatted exactly as written (Intl.NumberFormat v3); no float on the way.
    text = kept.format.format(toDecimal(money));
    if (keptTexts >= MAX_TEXTS) {
      for (const currencies of formats.values()) for (const other of currencies.values()) other.texts.clear();
      keptTexts = 0;
    }
    kept.texts.set(money.minor, text);
    keptTexts += 1;
  }
  return text;
}

/**
 * Reads a decimal written in an export or a file (`95`, `95.00`, `95,5`) into minor units of
 * `currency`, digit by digit (no float on the way): digits with at most one decimal mark, no sign,
 * no grouping, no symbol. More decimals than the currency has are read only when they are zeros
 * after a point (`12000.00` yen); after a comma they are refused, since `1,200` may be grouping.
 * Null when the text cannot be read so.
 */
export function parseMinor(text: string, currency: string): number | null {
  const m = /^(\d+)(?:([.,])(\d+))?$/.exec(text.trim());
  if (!m) return null;
  const exponent = currencyExponent(currency);
  const whole = (m[1] ?? '').replace(/^0+(?=\d)/, '');
  let fraction = m[3] ?? '';
  if (fraction.length > exponent) {
    if (m[2] !== '.' || /[^0]/.test(fraction.slice(exponent))) return null;
    fraction = fraction.slice(0, exponent);
  }
  const digits = whole + fraction.padEnd(exponent, '0');
  // Past 15 digits an integer may not be exact in a number; no rate or entry's amount comes near.
  if (digits.replace(/^0+(?=\d)/, '').length > 15) return null;
  return Number(digits);
}

export { amountOf, appliedRate, RATE_LEVELS, rateFor, type RatedEntry, type RateEntry, type RateLevel } from './rate-for.js';
export { firstInstantOfDay, instantOfWall, startOfDay, type WallTime } from './zoned-day.js';
