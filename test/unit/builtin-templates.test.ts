import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { BUILTIN_TEMPLATES } from '../../src/render/builtin-templates.js';
import { buildRenderContext, readsEntries, type EntryTuple, type RenderInput } from '../../src/render/render-context.js';
import { entryTuple, type TestEntry } from '../helpers/entry-tuples.js';
import { BASE_LIMITS, checkTemplateSyntax, renderTemplate, variablePaths } from '../../src/render/template-engine.js';
import { DOCUMENT_LANGUAGES, PHRASE_KEYS, phraseForms } from '../../packages/document/src/index.js';

const markdown = new MarkdownIt({ html: false, linkify: true });
const EMPTY_MESSAGE = 'No time was tracked in this period.';

// User-written strings chosen to break a table or smuggle a link if they were not escaped.
const workspace = { id: 'w1', name: 'Acme | [Corp](http://evil.example)' };
const ada = { id: 'u1', name: 'Ada | <b>Lovelace</b>' };
const web = { id: 'p1', name: 'Website ![x](http://t/x.png)' };

function entry(id: string, start: string, minutes: number, extra: Partial<TestEntry> = {}): EntryTuple {
  return entryTuple({ id, start, minutes, description: '', tags: [], project: web, user: ada, workspace, ...extra }, 'Europe/Paris');
}

function input(withEntries: boolean): RenderInput {
  const entries = withEntries
    ? [
        entry('e1', '2026-03-09T08:00:00Z', 90, { description: 'Fix | pipes\nand www.evil.example', tags: ['bug|fix', 'web'] }),
        entry('e2', '2026-03-09T13:00:00Z', 45, { project: null, description: '# heading?' }),
        entry('e3', '2026-03-11T09:30:00Z', 425, { description: '[click](javascript:alert(1))', tags: ['ops'] }),
      ]
    : [];
  return {
    report: { id: 'r1', name: 'March | *report*', note: withEntries ? 'All **good**.' : null, version: 1 },
    period: { from: '2026-03-09', to: '2026-03-15', preset: 'last_week' },
    timezone: 'Europe/Paris',
    generatedAt: '2026-03-16T08:00:00.000Z',
    owner: { id: 'u1', name: ada.name, email: 'ada@example.com' },
    workspaces: [workspace],
    template: { id: 't1', name: 'Built-in' },
    entries,
    aggregates: withEntries
      ? {
          totalMinutes: 560,
          entryCount: 3,
          byProject: [
            { id: 'p1', name: web.name, minutes: 515, entryCount: 2 },
            { id: null, name: 'No project', minutes: 45, entryCount: 1 },
          ],
          byUser: [{ id: 'u1', name: ada.name, minutes: 560, entryCount: 3 }],
          byTag: [
            { tag: 'ops', minutes: 425, entryCount: 1 },
            { tag: 'bug|fix', minutes: 90, entryCount: 1 },
            { tag: 'web', minutes: 90, entryCount: 1 },
          ],
          byDay: [
            { date: '2026-03-09', minutes: 135, entryCount: 2 },
            { date: '2026-03-11', minutes: 425, entryCount: 1 },
          ],
          nonBillableMinutes: 560,
          byClient: [{ id: null, name: 'No client', minutes: 560, entryCount: 3 }],
          lines: [
            { projectId: 'p1', userId: 'u1', billable: false, rate: null, minutes: 515, billableMinutes: 0, entryCount: 2, amount: null },
            { projectId: null, userId: 'u1', billable: false, rate: null, minutes: 45, billableMinutes: 0, entryCount: 1, amount: null },
          ],
        }
      : { totalMinutes: 0, entryCount: 0, byProject: [], byUser: [], byTag: [], byDay: [] },
  };
}

/** The same entries billed: an hourly rate of €100, rounded up to 15 minutes, the project-less entry included. */
function priced(base: RenderInput): RenderInput {
  const eur = (minor: number) => ({ currency: 'EUR', minor });
  const amounts = (minutes: number) => [eur(Math.round((minutes * 10000) / 60))];
  return {
    ...base,
    entries: (base.entries ?? []).map((e): EntryTuple => [
      e[0],
      e[1],
      e[2],
      e[3],
      e[4],
      e[5],
      e[6],
      e[7],
      e[8],
      e[9],
      true,
      e[4],
      'EUR',
      10000,
      Math.round((e[4] * 10000) / 60),
    ]),
    options: { rounding: { mode: 'up', minutes: 15 }, hideAmounts: false, billable: 'all', durationFormat: 'hm', locale: 'en' },
    aggregates: {
      ...base.aggregates,
      moneyVisible: true,
      billableMinutes: 560,
      nonBillableMinutes: 0,
      amounts: amounts(560),
      byProject: base.aggregates.byProject.map((g) => ({
        ...g,
        billableMinutes: g.minutes,
        nonBillableMinutes: 0,
        amounts: amounts(g.minutes),
      })),
      byUser: base.aggregates.byUser.map((g) => ({ ...g, billableMinutes: g.minutes, nonBillableMinutes: 0, amounts: amounts(g.minutes) })),
      byDay: base.aggregates.byDay.map((g) => ({ ...g, billableMinutes: g.minutes, nonBillableMinutes: 0, amounts: amounts(g.minutes) })),
      byClient: (base.aggregates.byClient ?? []).map((g) => ({
        ...g,
        billableMinutes: g.minutes,
        nonBillableMinutes: 0,
        amounts: amounts(g.minutes),
      })),
      lines: (base.aggregates.lines ?? []).map((l) => ({
        ...l,
        billable: true,
        rate: eur(10000),
        billableMinutes: l.minutes,
        amount: amounts(l.minutes)[0]!,
      })),
    },
  };
}

/** The same period with the second entry tracked by Grace instead of Ada. */
function twoPeople(base: RenderInput): RenderInput {
  const grace = { id: 'u2', name: 'Grace Hopper' };
  const entries = (base.entries ?? []).map((e): EntryTuple =>
    e[0] === 'e2' ? [e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7], grace.id, e[9]] : e,
  );
  return {
    ...base,
    entries,
    aggregates: {
      ...base.aggregates,
      byUser: [
        { id: 'u1', name: ada.name, minutes: 515, entryCount: 2 },
        { id: grace.id, name: grace.name, minutes: 45, entryCount: 1 },
      ],
      lines: (base.aggregates.lines ?? []).map((l) => (l.projectId === null ? { ...l, userId: grace.id } : l)),
    },
  };
}

/** Every table in the HTML, as rows of cell counts. */
function tables(html: string): number[][] {
  return [...html.matchAll(/<table>([\s\S]*?)<\/table>/g)].map((table) =>
    [...(table[1] ?? '').matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) => (row[1] ?? '').match(/<t[hd][\s>]/g)?.length ?? 0),
  );
}

function template(key: string) {
  const found = BUILTIN_TEMPLATES.find((t) => t.key === key);
  if (!found) throw new Error(`no built-in template ${key}`);
  return found;
}

describe('BUILTIN_TEMPLATES', () => {
  it('offers a timesheet, a summary and a weekly status', () => {
    expect(BUILTIN_TEMPLATES.map((t) => t.key)).toEqual(['timesheet', 'summary', 'weekly-status', 'invoice-summary']);
    for (const t of BUILTIN_TEMPLATES) {
      expect(t.name.length).toBeGreaterThan(0);
      expect(t.description.length).toBeGreaterThan(0);
    }
  });

  it.each(BUILTIN_TEMPLATES.map((t) => [t.key, t] as const))('%s parses', (_key, t) => {
    expect(() => {
      checkTemplateSyntax(t.body);
    }).not.toThrow();
    expect(() => {
      checkTemplateSyntax(t.nameTemplate);
    }).not.toThrow();
    expect(() => {
      checkTemplateSyntax(t.noteTemplate);
    }).not.toThrow();
  });

  it('escapes every user-written string in the bodies', () => {
    const userWritten = /\b(name|description|tags?|timezone)\b/;
    for (const t of BUILTIN_TEMPLATES) {
      for (const [output] of t.body.matchAll(/\{\{.*?\}\}/g)) {
        // A phrase's own words (`{{ "No description" | t }}`) are Chronicle's, not a user's.
        const read = output.replace(/"[^"]*"/g, '""');
        if (userWritten.test(read)) expect(output, `${t.key}: ${output}`).toMatch(/\|\s*md\s*\}\}$/);
      }
    }
  });

  it.each(BUILTIN_TEMPLATES.map((t) => [t.key, t] as const))('%s renders an empty period', async (_key, t) => {
    const out = await renderTemplate(t.body, buildRenderContext(input(false)));
    expect(out).toContain(EMPTY_MESSAGE);
    expect(tables(markdown.render(out))).toEqual([]);
  });

  it.each(BUILTIN_TEMPLATES.map((t) => [t.key, t] as const))('%s renders inert user text', async (_key, t) => {
    const out = await renderTemplate(t.body, buildRenderContext(twoPeople(input(true))));
    const html = markdown.render(out);
    expect(out).not.toContain(EMPTY_MESSAGE);
    expect(html).not.toMatch(/<a[\s>]|<img|<b>|<h[1-6]>heading/);
    expect(html).toContain('Acme | [Corp](http');
    if (t.key !== 'weekly-status') expect(html).toContain('Ada | &lt;b&gt;Lovelace&lt;/b&gt;');
  });

  // The share page and the web app show these from the front matter, in one format.
  it.each(BUILTIN_TEMPLATES.map((t) => [t.key, t] as const))(
    '%s leaves the title, period, owner and generation time to the page',
    async (_key, t) => {
      // A chart of days lists every day of the period as its data, not as a heading.
      const out = (await renderTemplate(t.body, buildRenderContext(input(true)))).replace(/^```chart\n[^`]*^```$/gm, '');
      expect(out).not.toContain('March \\| \\*report\\*');
      expect(out).not.toMatch(/^# /m);
      expect(out).not.toContain('2026-03-15');
      expect(out).not.toContain('2026-03-16');
      expect(out).not.toContain('Generated');
      expect(out).not.toContain('Lovelace</b> ·');
    },
  );

  it('lays the timesheet out as one table: entries, day subtotals, grand total', async () => {
    const out = await renderTemplate(template('timesheet').body, buildRenderContext(input(true)));
    // Header, 3 entries, 2 day subtotals and the grand total, six cells each.
    expect(tables(markdown.render(out))).toEqual([Array(7).fill(6)]);
    expect(out).toContain('| Date | Time | Project | Description | Tags | Duration |');
    expect(out).not.toContain('Person');
    expect(out).toContain('| **Monday 2026-03-09** | | | **Day total** | | **2h 15m** |');
    expect(out).toContain('| **Total** | | | **2 days, 3 entries** | | **9h 20m** |');
    expect(out).toContain(
      '| 2026-03-11 | 10:30 | Website \\!\\[x\\](http\\:\\//t/x\\.png) | \\[click\\](javascript\\:alert(1)) | ops | 7h 05m |',
    );
    expect(out).toContain('## Note\n\nAll **good**.');
  });

  it.each(['timesheet', 'summary'])('puts a chart of hours by day between the totals and the first table (%s)', async (key) => {
    const out = await renderTemplate(template(key).body, buildRenderContext(input(true)));
    const fence = /\n\n```chart\nhours_by_day: Hours by day\nunit: minutes\nseries: Billable \| Not billable\n((?:.*\n)*?)```\n\n/.exec(
      out,
    );
    expect(fence?.[1]?.split('\n')).toEqual([
      '2026-03-09: 135 | 0',
      '2026-03-10: 0 | 0',
      '2026-03-11: 425 | 0',
      '2026-03-12: 0 | 0',
      '2026-03-13: 0 | 0',
      '2026-03-14: 0 | 0',
      '2026-03-15: 0 | 0',
      '',
    ]);
    expect(out.indexOf('**Total:**')).toBeLessThan(fence?.index ?? -1);
    expect(out.indexOf('|')).toBeGreaterThan(fence?.index ?? Infinity);
    const empty = await renderTemplate(template(key).body, buildRenderContext(input(false)));
    expect(empty).not.toContain('```chart');
  });

  it('gives the timesheet a Person column when the entries are more than one person’s', async () => {
    const out = await renderTemplate(template('timesheet').body, buildRenderContext(twoPeople(input(true))));
    expect(tables(markdown.render(out))).toEqual([Array(7).fill(7)]);
    expect(out).toContain('| Date | Time | Person | Project | Description | Tags | Duration |');
    expect(out).toContain('| 2026-03-09 | 14:00 | Grace Hopper | — | \\# heading? |  | 0h 45m |');
    expect(out).toContain('| 2026-03-09 | 09:00 | Ada \\| \\<b\\>Lovelace\\</b\\> | Website');
    expect(out).toContain('| **Monday 2026-03-09** | | | | **Day total** | | **2h 15m** |');
    expect(out).toContain('| **Total** | | | | **2 days, 3 entries** | | **9h 20m** |');
  });

  it('leaves the timesheet’s Tags column out when no entry has a tag', async () => {
    const base = input(true);
    const untagged: RenderInput = {
      ...base,
      entries: (base.entries ?? []).map((e): EntryTuple => {
        const copy = [...e] as EntryTuple;
        copy[6] = [];
        return copy;
      }),
      aggregates: { ...base.aggregates, byTag: [] },
    };
    const out = await renderTemplate(template('timesheet').body, buildRenderContext(untagged));
    // Header, 3 entries, 2 day subtotals and the grand total, five cells each.
    expect(tables(markdown.render(out))).toEqual([Array(7).fill(5)]);
    expect(out).toContain('| Date | Time | Project | Description | Duration |\n|---|---|---|---|---:|\n');
    expect(out).toContain(
      '| 2026-03-11 | 10:30 | Website \\!\\[x\\](http\\:\\//t/x\\.png) | \\[click\\](javascript\\:alert(1)) | 7h 05m |',
    );
    expect(out).toContain('| **Monday 2026-03-09** | | | **Day total** | **2h 15m** |');
    expect(out).toContain('| **Total** | | | **2 days, 3 entries** | **9h 20m** |');
    // With a tag on any entry, every row has the column, as the test above shows.
  });

  it('summarises by project, user and tag with hours and shares', async () => {
    const out = await renderTemplate(template('summary').body, buildRenderContext(input(true)));
    // Projects (2 + total), users (1 + total), tags (3); five columns each.
    expect(tables(markdown.render(out))).toEqual([Array(4).fill(5), Array(3).fill(5), Array(4).fill(5)]);
    expect(out).toContain('| _No project_ | 1 | 0h 45m | 0.75 | 8.0% |');
    expect(out).toContain('| ops | 1 | 7h 05m | 7.08 | 75.9% |');
    expect(out).toContain('| bug\\|fix | 1 | 1h 30m | 1.50 | 16.1% |');
  });

  it('render the same without the entries when they read none (only the render statement’s sums)', async () => {
    const entryFree = BUILTIN_TEMPLATES.filter((t) => !readsEntries(variablePaths(t.body)));
    // The header's day count reads the days, not their entries; the Timesheet and the weekly
    // status's highlights read the entries themselves.
    expect(entryFree.map((t) => t.key)).toEqual(['summary', 'invoice-summary']);
    for (const { body } of entryFree) {
      const withEntries = await renderTemplate(body, buildRenderContext(input(true)));
      expect(await renderTemplate(body, buildRenderContext({ ...input(true), entries: null }))).toBe(withEntries);
    }
  });

  it('says so when no entry carries a tag', async () => {
    const untagged = input(true);
    untagged.aggregates.byTag = [];
    const out = await renderTemplate(template('summary').body, buildRenderContext(untagged));
    expect(out).toContain('No entries carry tags.');
    expect(tables(markdown.render(out))).toHaveLength(2);
  });

  it('gives a weekly status with the note, highlights and where the time went', async () => {
    const out = await renderTemplate(template('weekly-status').body, buildRenderContext(input(true)));
    expect(out).toContain('All **good**.');
    expect(out).toContain('- **9h 20m** tracked in 3 entries over 2 days');
    expect(out).toContain('- Busiest day: Wednesday 2026-03-11, 7h 05m');
    expect(out).toContain('  - \\# heading?: 0h 45m, 2026-03-09');
    const undescribed = input(true);
    undescribed.entries = undescribed.entries!.map((e): EntryTuple => [e[0], e[1], e[2], e[3], e[4], '', e[6], e[7], e[8], e[9]]);
    const plain = await renderTemplate(template('weekly-status').body, buildRenderContext(undescribed));
    expect(plain).toContain('  - _No description_ (Website');
    expect(tables(markdown.render(out))).toEqual([Array(3).fill(5), Array(4).fill(5)]);
  });

  it('suggests plain-text names and a Markdown note', async () => {
    const context = buildRenderContext(input(true));
    expect(await renderTemplate(template('timesheet').nameTemplate, context)).toBe('Timesheet 9 Mar 2026 – 15 Mar 2026');
    expect(await renderTemplate(template('summary').nameTemplate, context)).toBe('Summary 9 Mar 2026 – 15 Mar 2026');
    expect(await renderTemplate(template('weekly-status').nameTemplate, context)).toBe('Weekly status 9 Mar 2026 – 15 Mar 2026');
    expect(await renderTemplate(template('weekly-status').noteTemplate, context)).toContain('**Next**');
  });
});

describe('the built-ins in the report’s language', () => {
  /** A render of `source` in `locale`, as a report with that locale renders it (its charts read the context's). */
  const renderIn = (source: string, base: RenderInput, locale: string) =>
    renderTemplate(
      source,
      buildRenderContext({
        ...base,
        options: { rounding: { mode: 'up', minutes: 15 }, hideAmounts: false, billable: 'all', durationFormat: 'hm', locale },
      }),
      BASE_LIMITS,
      { locale, durationFormat: 'hm' },
    );

  it('write every word of their own through t', () => {
    for (const t of BUILTIN_TEMPLATES) {
      for (const [part, text] of [
        ['body', t.body],
        ['name template', t.nameTemplate],
      ] as const) {
        // What is left outside Liquid is Markdown and punctuation; `h` is the unit of hours (`7.08 h`, `€90.00/h`).
        const own = text.replace(/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g, '').replace(/\bh\b/g, '');
        expect(own.match(/\p{L}+/gu), `${t.key}, ${part}`).toBeNull();
      }
    }
  });

  /** The English text of every phrase that reads otherwise in `language`, cut at its names, the longer pieces only. */
  function englishLeftIn(language: (typeof DOCUMENT_LANGUAGES)[number]): string[] {
    const pieces = new Set<string>();
    for (const key of PHRASE_KEYS) {
      const english = phraseForms('en', key)!;
      const translated = phraseForms(language, key)!;
      for (const form of typeof english === 'string' ? [english] : [english.one, english.other]) {
        const theirs = typeof translated === 'string' ? [translated] : [translated.one, translated.other];
        if (theirs.includes(form)) continue;
        for (const piece of form.split(/\{\w+\}/))
          if (piece.trim().length >= 5 && !theirs.some((t) => t.includes(piece.trim()))) pieces.add(piece.trim());
      }
    }
    return [...pieces];
  }

  it.each(DOCUMENT_LANGUAGES.filter((l) => l !== 'en'))(
    '%s: no English phrase is left in a built-in or its suggested name',
    async (language) => {
      const left = englishLeftIn(language);
      expect(left.length).toBeGreaterThan(20);
      for (const t of BUILTIN_TEMPLATES) {
        for (const base of [twoPeople(input(true)), input(true), input(false), priced(input(true))]) {
          // A chart fence's first word names its kind (`amount_by_client`): an identifier, not a word of the document.
          const out = ((await renderIn(t.body, base, language)) + (await renderIn(t.nameTemplate, base, language))).replace(
            /^(hours_by_day|hours_by_project|hours_by_person|amount_by_client):/gm,
            '',
          );
          for (const piece of left) expect(out, `${t.key} in ${language}: "${piece}"`).not.toContain(piece);
        }
      }
    },
  );

  it.each(DOCUMENT_LANGUAGES)('%s: every heading, bold and italic phrase renders as Markdown, nothing left over', async (language) => {
    for (const t of BUILTIN_TEMPLATES) {
      for (const base of [priced(input(true)), twoPeople(input(true)), input(false)]) {
        const html = markdown.render(await renderIn(t.body, base, language));
        const text = html.replace(/<pre>[\s\S]*?<\/pre>/g, '').replace(/<[^>]+>/g, ' ');
        expect(text.match(/\*\*|(^|\s)_\S|\S_(\s|$)/g), `${t.key} in ${language}`).toBeNull();
      }
    }
    const invoice = await renderIn(template('invoice-summary').body, priced(input(true)), language);
    expect(invoice).toContain('€');
    expect(tables(markdown.render(invoice)).length).toBeGreaterThanOrEqual(2);
  });

  it('prints the same text as before in English, and in German its own words', async () => {
    const base = twoPeople(input(true));
    const english = await renderIn(template('summary').body, base, 'en');
    expect(english).toContain('**Total:** 9h 20m (9.33 h) in 3 entries over 2 days');
    expect(english).toContain('## By project\n\n| Project | Entries | Duration | Hours | Share |');
    expect(english).toContain('| _No project_ | 1 |');
    const german = await renderIn(template('summary').body, base, 'de');
    expect(german).toContain('**Gesamt:** 9h 20m (9,33 h) · 3 Einträge · 2 Tage');
    expect(german).toContain('## Nach Projekt\n\n| Projekt | Einträge | Dauer | Stunden | Anteil |');
    expect(german).toContain('| _Kein Projekt_ | 1 |');
    expect(german).toContain('_Zeit erfasst in Acme \\| \\[Corp\\](http');
  });

  it('suggests a name whose days read as the language writes a date', async () => {
    const base = twoPeople(input(true));
    const name = (key: string, locale: string) => renderIn(template(key).nameTemplate, base, locale);
    expect(await name('timesheet', 'en')).toBe('Timesheet 9 Mar 2026 – 15 Mar 2026');
    expect(await name('timesheet', 'en-US')).toBe('Timesheet 9 Mar 2026 – 15 Mar 2026');
    expect(await name('timesheet', 'de')).toBe('Stundenzettel 9. März 2026 – 15. März 2026');
    expect(await name('invoice-summary', 'fr')).toBe('Récapitulatif de facturation 9 mars 2026 – 15 mars 2026');
    expect(await name('summary', 'es')).toBe('Resumen 9 de marzo de 2026 – 15 de marzo de 2026');
    expect(await name('timesheet', 'ja')).toBe('タイムシート 2026年3月9日 – 2026年3月15日');
    expect(await name('weekly-status', 'ko')).toMatch(/ 2026년 3월 9일 – 2026년 3월 15일$/);
  });
});
