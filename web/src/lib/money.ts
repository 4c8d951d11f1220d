/**
 * Amounts of money as the API carries them (docs/api.md "Rates"): `{ currency, minor }`, an
 * integer count of the currency's minor unit. What a person types is read from its digits, never
 * through a float, and amounts are printed with Intl.NumberFormat in the person's locale.
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

const formats = new Map<string, Intl.NumberFormat>();

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
    formats.set(key, format);
  }
  // A decimal string is formatted exactly as written (Intl.NumberFormat v3); no float on the way.
  return format.format(toDecimal(money));
}

/** What reading a typed amount gave: the minor units, or why it cannot be read, in the app's words. */
export type ParsedAmount = { minor: number; problem?: undefined } | { minor?: undefined; problem: string };

/**
 * Reads an amount typed in `currency`: digits with at most one decimal mark (`.` or `,`, whichever
 * the person's keyboard gives) and no more decimals than the currency has; no sign, no grouping.
 * `90`, `90.5`, `90,50` and `.5` are read; `1,234.50`, `-5`, `9e3` and `€90` are refused.
 */
export function parseAmount(text: string, currency: string, locale: string): ParsedAmount {
  const exponent = currencyExponent(currency);
  const example = exampleAmount(currency, locale);
  const typed = text.trim();
  if (typed === '') return { problem: `Enter the hourly rate, like ${example}.` };
  const match = /^(\d*)(?:[.,](\d*))?$/.exec(typed);
  const whole = match?.[1] ?? '';
  const fraction = match?.[2] ?? '';
  if (!match || (whole === '' && fraction === '')) {
    return { problem: `Enter a number like ${example}: digits and one decimal mark, with no currency sign or thousands separator.` };
  }
  if (fraction.length > exponent) {
    return {
      problem:
        exponent === 0
          ? `${currency} has no decimals: enter a whole number, like ${example}.`
          : `${currency} has ${exponent} decimals: use at most ${exponent} digits after the decimal mark.`,
    };
  }
  const significant = whole.replace(/^0+/, '');
  const max = formatMoney({ currency, minor: MAX_RATE_MINOR }, locale);
  // Longer than the bound's whole part: too much, and no digit string of that length reaches a float.
  if (significant.length > 9) return { problem: `Use at most ${max}.` };
  const minor = Number(significant || '0') * 10 ** exponent + Number(fraction.padEnd(exponent, '0') || '0');
  if (minor > MAX_RATE_MINOR) return { problem: `Use at most ${max}.` };
  return { minor };
}

/** An amount as a person would type it in `locale` (`90.50`, `90,50`, `12000`), for hints and messages. */
export function exampleAmount(currency: string, locale: string): string {
  const exponent = currencyExponent(currency);
  const sample = exponent === 0 ? 12000 : 90.5;
  return new Intl.NumberFormat(locale, { useGrouping: false, minimumFractionDigits: exponent, maximumFractionDigits: exponent }).format(
    sample,
  );
}

/** The currency codes to offer (ISO 4217, as the browser knows them), with `current` kept when the list lacks it. */
export function currencyCodes(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : [];
  return known.includes(current) ? known : [...known, current].sort();
}

/** A currency's name in `locale` ("Euro"), or its code when the browser has none. */
export function currencyName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames(locale, { type: 'currency' }).of(code) ?? code;
  } catch {
    return code;
  }
}
