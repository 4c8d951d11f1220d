/**
 * Amounts of money in the web app: what a person types is read from its digits, never through a
 * float; printing and the ISO 4217 exponents come from packages/money, shared with the server.
 */
import { currencyExponent, formatMoney, MAX_RATE_MINOR } from '../../../packages/money/src/index.js';

export { currencyExponent, formatMoney, MAX_RATE_MINOR, toDecimal, type Money } from '../../../packages/money/src/index.js';

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
