/**
 * BCP 47 locale tags (docs/api.md "Users and tokens"). A tag is accepted only when it is well
 * formed (`Intl.getCanonicalLocales`) and the runtime can format in it
 * (`Intl.DateTimeFormat.supportedLocalesOf`), so a stored locale is one Node can print with;
 * docs/decisions.md "Locales come from the runtime" says why.
 */

/** The longest tag Chronicle stores, in its canonical form. */
export const LOCALE_MAX_LENGTH = 35;

/** The canonical spelling of `tag` (`en-us` becomes `en-US`), or undefined when it is not a tag the runtime supports. */
export function canonicalLocale(tag: string): string | undefined {
  let canonical: string | undefined;
  try {
    [canonical] = Intl.getCanonicalLocales(tag);
  } catch {
    return undefined;
  }
  if (canonical === undefined || canonical.length > LOCALE_MAX_LENGTH) return undefined;
  return Intl.DateTimeFormat.supportedLocalesOf([canonical]).length === 1 ? canonical : undefined;
}

/** Formatters made, by locale and options: making one costs hundreds of microseconds, using one a few. */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const DATE_FORMATS_KEPT = 256;

/**
 * A date formatter for `locale`, or for English when the runtime cannot format in it; kept for the
 * next call with the same locale and options (a formatter never changes). Throws, as Intl does, for
 * options it cannot take (an unknown time zone).
 */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (format) return format;
  try {
    format = new Intl.DateTimeFormat(locale, options);
  } catch {
    format = new Intl.DateTimeFormat('en', options);
  }
  if (dateFormats.size >= DATE_FORMATS_KEPT) dateFormats.clear();
  dateFormats.set(key, format);
  return format;
}

/**
 * The locale the dates around a document are written in (its share page, PDF and mail): the
 * document's own, except that plain `en` writes the day first (`1 Nov 2026`), as Chronicle always
 * has; `en-US` writes `Nov 1, 2026`. A template's `date` filter follows the locale as Intl does.
 */
export const documentDateLocale = (locale: string): string => (locale === 'en' ? 'en-GB' : locale);

/** `2026-11-01` as midnight UTC of that calendar day; null for anything else, a day past its month's end included. */
export function isoDay(day: string): Date | null {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T00:00:00Z`) : null;
  return date && !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day) ? date : null;
}

/** `2026-11-01` in the medium style of `locale`'s dates (`documentDateLocale`: `1 Nov 2026`, `Nov 1, 2026`); anything else as given. */
export function formatIsoDay(day: string, locale: string): string {
  const date = isoDay(day);
  return date ? dateTimeFormat(documentDateLocale(locale), { dateStyle: 'medium', timeZone: 'UTC' }).format(date) : day;
}

/**
 * An instant as a clock in `timezone` showed it, in `locale`'s document dates (`documentDateLocale`),
 * and the zone it was read in: an unknown zone name reads as UTC, still a truthful reading.
 */
export function formatInstant(date: Date, timezone: string, locale: string, dateStyle: 'medium' | 'long'): { text: string; zone: string } {
  const options = { dateStyle, timeStyle: 'short' } as const;
  try {
    return { text: dateTimeFormat(documentDateLocale(locale), { ...options, timeZone: timezone }).format(date), zone: timezone };
  } catch {
    return { text: dateTimeFormat(documentDateLocale(locale), { ...options, timeZone: 'UTC' }).format(date), zone: 'UTC' };
  }
}
