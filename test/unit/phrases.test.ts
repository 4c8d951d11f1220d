/**
 * Chronicle's phrases in each language its documents are written in (packages/document
 * phrases.ts), and the `t` filter that prints them in a render (docs/templates.md "Filters").
 */
import { describe, expect, it } from 'vitest';
import { DOCUMENT_LANGUAGES, PHRASE_KEYS, documentLanguage, phrase, phraseForms } from '../../packages/document/src/index.js';
import { BASE_LIMITS, renderTemplate, TemplateError } from '../../src/render/template-engine.js';

const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
const formsOf = (forms: string | { one: string; other: string }): string[] =>
  typeof forms === 'string' ? [forms] : [forms.one, forms.other];

describe('the phrase catalog', () => {
  it('has every phrase in every language, with no name the English does not fill', () => {
    for (const language of DOCUMENT_LANGUAGES) {
      for (const key of PHRASE_KEYS) {
        const forms = phraseForms(language, key);
        expect(forms, `${language}: ${key}`).toBeDefined();
        for (const form of formsOf(forms!)) {
          expect(form.trim(), `${language}: ${key}`).not.toBe('');
          for (const name of placeholders(form)) expect(placeholders(key), `${language}: ${key} -> ${form}`).toContain(name);
        }
      }
    }
  });

  it('prints every name of a phrase in English, in each of its forms', () => {
    for (const key of PHRASE_KEYS)
      for (const form of formsOf(phraseForms('en', key)!)) expect(placeholders(form), key).toEqual(placeholders(key));
  });

  it('writes nothing Markdown would read as syntax, so a phrase is safe in a heading or a table cell', () => {
    for (const language of DOCUMENT_LANGUAGES) {
      for (const key of PHRASE_KEYS) {
        for (const form of formsOf(phraseForms(language, key)!)) expect(form, `${language}: ${key}`).not.toMatch(/[|*_`[\]<>\\#~&]/);
      }
    }
  });
});

describe('phrase', () => {
  it('reads a locale as its language, and any other as English', () => {
    expect(phrase('de', 'Total:')).toBe('Gesamt:');
    expect(phrase('de-AT', 'Total:')).toBe('Gesamt:');
    expect(phrase('fr-CA', 'Total:')).toBe('Total :');
    expect(phrase('ja', 'Total:')).toBe('合計：');
    for (const locale of ['en', 'en-US', 'pt-BR', 'not a locale!', '']) expect(phrase(locale, 'Total:'), locale).toBe('Total:');
    expect(documentLanguage('ko-KR')).toBe('ko');
  });

  it('picks a plural form by count as the language counts', () => {
    expect(phrase('en', '{count} entries', { count: '1' })).toBe('1 entry');
    expect(phrase('en', '{count} entries', { count: '0' })).toBe('0 entries');
    expect(phrase('en', '{count} entries', { count: '2' })).toBe('2 entries');
    // French counts 0 and 1 as one.
    expect(phrase('fr', '{count} entries', { count: '0' })).toBe('0 entrée');
    expect(phrase('fr', '{count} entries', { count: '1' })).toBe('1 entrée');
    expect(phrase('fr', '{count} entries', { count: '2' })).toBe('2 entrées');
    expect(phrase('ja', '{count} entries', { count: '1' })).toBe('1 件');
    // No count, or one that is not a number: the other form.
    expect(phrase('en', '{count} entries')).toBe('{count} entries');
    expect(phrase('en', '{count} entries', { count: 'many' })).toBe('many entries');
  });

  it('fills the names it is given and leaves the others as written', () => {
    expect(phrase('de', 'Total due in {currency}', { currency: 'EUR' })).toBe('Fälliger Gesamtbetrag in EUR');
    expect(phrase('en', 'Total due in {currency}')).toBe('Total due in {currency}');
    // A phrase Chronicle does not know is its own text, filled the same way.
    expect(phrase('de', 'Hello {who}, {unknown}', { who: 'Ada' })).toBe('Hello Ada, {unknown}');
    // Only own names: nothing from Object.prototype.
    expect(phrase('en', 'a {constructor} b', Object.create(null) as Record<string, string>)).toBe('a {constructor} b');
    expect(phrase('en', 'a {toString} b', {})).toBe('a {toString} b');
  });
});

describe('the t filter', () => {
  const render = (source: string, locale: string, context: object = {}) =>
    renderTemplate(source, context, BASE_LIMITS, { locale, durationFormat: 'hm' });

  it('prints a phrase in the render’s language, with its named arguments', async () => {
    const source = '{{ "Total:" | t }} {{ "{count} entries" | t: count: n }} {{ "Total due in {currency}" | t: currency: c }}';
    expect(await render(source, 'en', { n: 1, c: 'EUR' })).toBe('Total: 1 entry Total due in EUR');
    expect(await render(source, 'de', { n: 3, c: 'EUR' })).toBe('Gesamt: 3 Einträge Fälliger Gesamtbetrag in EUR');
    expect(await render(source, 'ko', { n: 3, c: 'KRW' })).toBe('합계: 3개 항목 청구 합계 (KRW)');
  });

  it('prints a phrase it does not know as written, filled, and nil as nothing', async () => {
    expect(await render('{{ "Hello {who}{none}" | t: who: name, none: missing }}', 'de', { name: 'Ada' })).toBe('Hello Ada');
  });

  it('counts what a phrase will print against the memory limit before it makes it', async () => {
    // Filled, this would be 10^9 characters: past what V8 holds in one string, so making it first
    // would fail as a runtime error after gigabytes of work, not as the limit it is.
    const many = '{a}'.repeat(10_000);
    const limits = { ...BASE_LIMITS, memory: 1_000_000 };
    const error = await renderTemplate(`{{ "${many}" | t: a: big }}`, { big: 'x'.repeat(100_000) }, limits, {
      locale: 'en',
      durationFormat: 'hm',
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TemplateError);
    expect((error as TemplateError).kind).toBe('limit');
    // Within the limit it prints in full.
    expect(await renderTemplate('{{ "{a}-{a}" | t: a: "xy" }}', {}, limits, { locale: 'en', durationFormat: 'hm' })).toBe('xy-xy');
  });

  it('refuses what is not a phrase with named arguments of text or numbers, as a template error', async () => {
    for (const source of [
      '{{ "Total:" | t: 3 }}',
      '{{ "Total:" | t: count: list }}',
      '{{ "Total:" | t: count: map }}',
      '{{ list | t }}',
      '{{ 42 | t }}',
    ]) {
      const error = await render(source, 'en', { list: [1, 2], map: { a: 1 } }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, source).toBeInstanceOf(TemplateError);
    }
  });
});
