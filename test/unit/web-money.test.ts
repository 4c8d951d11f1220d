/** The web app's amounts (web/src/lib/money.ts): typed decimals read into minor units without floats, and printed per locale. */
import { describe, expect, it } from 'vitest';
import { currencyExponent, formatMoney, MAX_RATE_MINOR, parseAmount, toDecimal } from '../../web/src/lib/money.js';

describe('reading a typed amount', () => {
  it('reads digits with one decimal mark, either . or ,', () => {
    expect(parseAmount('90', 'EUR', 'en')).toEqual({ minor: 9000 });
    expect(parseAmount(' 90.5 ', 'EUR', 'en')).toEqual({ minor: 9050 });
    expect(parseAmount('90,50', 'EUR', 'de-DE')).toEqual({ minor: 9050 });
    expect(parseAmount('.5', 'EUR', 'en')).toEqual({ minor: 50 });
    expect(parseAmount('90.', 'EUR', 'en')).toEqual({ minor: 9000 });
    expect(parseAmount('0', 'EUR', 'en')).toEqual({ minor: 0 });
    expect(parseAmount('007.10', 'EUR', 'en')).toEqual({ minor: 710 });
  });

  it('is exact where floating point is not', () => {
    // 0.1 + 0.2, 1.005 × 100 and 4.35 × 100 are the classic float errors.
    expect(parseAmount('0.29', 'EUR', 'en')).toEqual({ minor: 29 });
    expect(parseAmount('1.005', 'KWD', 'en')).toEqual({ minor: 1005 });
    expect(parseAmount('4.35', 'USD', 'en')).toEqual({ minor: 435 });
    expect(parseAmount('1000000.00', 'EUR', 'en')).toEqual({ minor: MAX_RATE_MINOR });
    expect(parseAmount('100000000', 'JPY', 'en')).toEqual({ minor: MAX_RATE_MINOR });
  });

  it('follows ISO 4217 exponents, not CLDR digits', () => {
    expect(currencyExponent('EUR')).toBe(2);
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('KWD')).toBe(3);
    // CLDR prints these without decimals; ISO 4217 has 2 and 3.
    expect(currencyExponent('HUF')).toBe(2);
    expect(currencyExponent('IQD')).toBe(3);
    expect(parseAmount('12000', 'JPY', 'en')).toEqual({ minor: 12000 });
    expect(parseAmount('12.5', 'JPY', 'en').problem).toBe('JPY has no decimals: enter a whole number, like 12000.');
    expect(parseAmount('1.234', 'EUR', 'en').problem).toBe('EUR has 2 decimals: use at most 2 digits after the decimal mark.');
  });

  it('refuses what is not a plain amount, in the app’s words', () => {
    expect(parseAmount('', 'EUR', 'en').problem).toBe('Enter the hourly rate, like 90.50.');
    expect(parseAmount('', 'EUR', 'de-DE').problem).toBe('Enter the hourly rate, like 90,50.');
    for (const bad of ['-5', '1,234.50', '9e3', '€90', '90 EUR', '.', '1.2.3', 'NaN', 'Infinity', '0x10']) {
      expect(parseAmount(bad, 'EUR', 'en').problem, bad).toMatch(/^Enter a number like 90.50/);
    }
    expect(parseAmount('1000000.01', 'EUR', 'en').problem).toBe('Use at most €1,000,000.00.');
    expect(parseAmount('99999999999999999999', 'EUR', 'en').problem).toBe('Use at most €1,000,000.00.');
  });
});

describe('printing an amount', () => {
  it('writes minor units as a decimal digit by digit', () => {
    expect(toDecimal({ currency: 'EUR', minor: 5 })).toBe('0.05');
    expect(toDecimal({ currency: 'EUR', minor: 12345 })).toBe('123.45');
    expect(toDecimal({ currency: 'JPY', minor: 12000 })).toBe('12000');
    expect(toDecimal({ currency: 'KWD', minor: 1005 })).toBe('1.005');
  });

  it('formats in the locale with exactly the currency’s decimals', () => {
    expect(formatMoney({ currency: 'EUR', minor: 123450 }, 'en')).toBe('€1,234.50');
    expect(formatMoney({ currency: 'EUR', minor: 123450 }, 'de-DE')).toBe('1.234,50\u00a0€');
    expect(formatMoney({ currency: 'JPY', minor: 12000 }, 'en-US')).toBe('¥12,000');
    expect(formatMoney({ currency: 'HUF', minor: 150050 }, 'en')).toBe('HUF\u00a01,500.50');
  });

  it('prints each amount as Intl does, the texts it keeps per locale and currency never mixed', () => {
    // More amounts than are kept per format, each printed twice, in two locales and currencies.
    const amounts = Array.from({ length: 6_000 }, (_, i) => (i * 7_919) % 2_000_003);
    for (const [locale, currency] of [
      ['en', 'EUR'],
      ['de-DE', 'EUR'],
      ['en', 'JPY'],
    ] as const) {
      const exponent = currencyExponent(currency);
      const intl = new Intl.NumberFormat(locale, {
        style: 'currency',
        currency,
        minimumFractionDigits: exponent,
        maximumFractionDigits: exponent,
      });
      for (const pass of [1, 2]) {
        for (const minor of amounts) {
          const expected = intl.format(toDecimal({ currency, minor }));
          const printed = formatMoney({ currency, minor }, locale);
          if (printed !== expected)
            expect({ pass, locale, currency, minor, printed }).toEqual({ pass, locale, currency, minor, printed: expected });
        }
      }
    }
    expect(formatMoney({ currency: 'EUR', minor: -5 }, 'en')).toBe('-€0.05');
  });
});
