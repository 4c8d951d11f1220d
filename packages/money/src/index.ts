/**
 * Amounts of money as Chronicle carries them (billing.md §1, docs/api.md "Rates"): `{ currency,
 * minor }`, an integer count of the currency's minor unit by its ISO 4217 exponent, printed with
 * Intl.NumberFormat from a decimal string, never through a float. The server's reports and the web
 * app both print money with this package, so a document and a screen agree on every currency.
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

/** Formatters are costly to make: one per locale and currency, kept, at most this many at once. */
const formats = new Map<string, Intl.NumberFormat>();
const MAX_FORMATS = 256;

/** The amount in `locale` (`€1,234.50`, `1.234,50 €`, `¥12,000`), with exactly the currency's decimals. */
export function formatMoney(money: Money, locale: string): string {
  const key = `${locale} ${money.currency}`;
  let format = formats.get(key);
  if (!format) {
    const digits = currencyExponent(money.currency);
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: money.currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    if (formats.size >= MAX_FORMATS) formats.clear();
    formats.set(key, format);
  }
  // A decimal string is formatted exactly as written (Intl.NumberFormat v3); no float on the way.
  return format.format(toDecimal(money));
}
