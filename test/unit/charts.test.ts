import { describe, expect, it } from 'vitest';
import {
  CHART_LIMITS,
  chartHtml,
  chartSvgForPrint,
  markdownToSafeHtml,
  parseChart,
  writeChart,
  type ChartData,
} from '../../packages/document/src/index.js';
import { buildRenderContext, type RenderInput } from '../../src/render/render-context.js';
import { checkTemplateSyntax, renderTemplate, TemplateError } from '../../src/render/template-engine.js';

const HOSTILE = `<script>alert("x")</script> & 'quotes' | pipes: 5 | 3`;

const days: ChartData = {
  kind: 'hours_by_day',
  title: 'Hours by day',
  unit: 'minutes',
  series: ['Billable', 'Not billable'],
  rows: [
    { label: '2026-03-09', values: [90, 45] },
    { label: '2026-03-10', values: [0, 0] },
    { label: '2026-03-11', values: [425, 0] },
  ],
};

const projects: ChartData = {
  kind: 'hours_by_project',
  title: 'Hours by project',
  unit: 'minutes',
  series: ['Billable', 'Not billable'],
  rows: [
    { label: HOSTILE, values: [600, 30] },
    { label: 'Website', values: [0, 120] },
  ],
};

const fence = (body: string) => `\`\`\`chart\n${body}\`\`\`\n`;

/** The texts of a drawing, in order. */
const texts = (svg: string | null) => [...(svg ?? '').matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1] ?? '');

/** A page's chart drawings: its wide one, then its narrow one. */
const drawings = (html: string) => [...html.matchAll(/<svg [\s\S]*?<\/svg>/g)].map((m) => m[0]);

/** Each text of a drawing where it stands: x, the baseline's y and its anchor. */
function placedTexts(svg: string): { text: string; x: number; y: number; anchor: string }[] {
  return [...svg.matchAll(/<text x="([\d.-]+)" y="([\d.-]+)"(?: text-anchor="(\w+)")?[^>]*>([^<]*)<\/text>/g)].map((m) => ({
    x: Number(m[1]),
    y: Number(m[2]),
    anchor: m[3] ?? 'start',
    text: m[4] ?? '',
  }));
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

/** A text's width at 12 px, reckoned as a browser's fonts take it at most: 12 px a Chinese, Japanese or Korean character, 7 any other. */
function reckoned(text: string): number {
  let width = 0;
  for (const c of text) width += /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u30FF]/u.test(c) ? 12 : 7;
  return width;
}

/** The texts of a drawing `width` wide that reach past either edge. */
function outside(svg: string, width: number): string[] {
  return placedTexts(svg).flatMap((text) => {
    const size = reckoned(text.text);
    const from = text.anchor === 'end' ? text.x - size : text.anchor === 'middle' ? text.x - size / 2 : text.x;
    return from < 0 || from + size > width ? [text.text] : [];
  });
}

/** Hours by project in Japanese, one name far longer than a column of names holds. */
const japanese: ChartData = {
  kind: 'hours_by_project',
  title: 'プロジェクト別の時間',
  unit: 'minutes',
  locale: 'ja',
  series: ['請求対象', '請求対象外'],
  rows: [
    { label: '顧客ポータルの全面リニューアルと決済フローの改善作業', values: [5400, 600] },
    { label: 'モバイルアプリ', values: [2400, 300] },
  ],
};

/** The fences of a rendered Markdown document, parsed. */
function chartsIn(markdown: string): (ChartData | null)[] {
  return [...markdown.matchAll(/^```chart\n([\s\S]*?)^```$/gm)].map((m) => parseChart(m[1] ?? ''));
}

describe('the chart fence format', () => {
  it('reads back what it writes, hostile names included', () => {
    expect(writeChart(days)).toBe(
      'hours_by_day: Hours by day\nunit: minutes\nseries: Billable | Not billable\n2026-03-09: 90 | 45\n2026-03-10: 0 | 0\n2026-03-11: 425 | 0\n',
    );
    expect(parseChart(writeChart(days))).toEqual(days);
    expect(parseChart(writeChart(projects))).toEqual(projects);
    const money: ChartData = {
      kind: 'amount_by_client',
      title: 'Amount by client (JPY)',
      unit: 'JPY',
      series: ['Amount'],
      rows: [{ label: 'Acme', values: [120000] }],
    };
    expect(parseChart(writeChart(money))).toEqual(money);
  });

  it('folds a name onto one line and shortens it', () => {
    const messy = {
      ...projects,
      rows: [
        { label: ' Line\none\u0000\ttwo\u2028three ', values: [1, 2] },
        { label: 'x'.repeat(500), values: [3, 4] },
      ],
    };
    const read = parseChart(writeChart(messy));
    expect(read?.rows[0]?.label).toBe('Line one two three');
    expect(read?.rows[1]?.label).toHaveLength(CHART_LIMITS.labelLength);
    expect(read?.rows[1]?.label.endsWith('…')).toBe(true);
  });

  const valid = writeChart(days);
  it.each([
    ['an unknown kind', valid.replace('hours_by_day:', 'pie:')],
    ['a money unit on an hours chart', valid.replace('unit: minutes', 'unit: EUR')],
    [
      'a lower-case currency',
      writeChart({ ...projects, kind: 'amount_by_client', unit: 'EUR', series: ['Amount'], rows: [{ label: 'A', values: [1] }] }).replace(
        'EUR',
        'eur',
      ),
    ],
    ['a missing unit line', valid.replace('unit: minutes\n', '')],
    ['too few values', valid.replace('90 | 45', '90')],
    ['too many values', valid.replace('90 | 45', '90 | 45 | 1')],
    ['a negative value', valid.replace('90 | 45', '-90 | 45')],
    ['a decimal', valid.replace('90 | 45', '1.5 | 45')],
    ['a leading zero', valid.replace('90 | 45', '090 | 45')],
    ['sixteen digits', valid.replace('90 | 45', '1234567890123456 | 45')],
    ['an exponent', valid.replace('90 | 45', '1e3 | 45')],
    ['a tab', valid.replace('90 | 45', '90\t| 45')],
    ['a control character in a label', valid.replace('2026-03-09', '2026\u0007-03-09')],
    ['a label with outer spaces', valid.replace('2026-03-09', ' 2026-03-09')],
    ['three series', valid.replace('Billable | Not billable', 'A | B | C')],
    ['no rows', 'hours_by_day: Hours by day\nunit: minutes\nseries: Billable | Not billable\n'],
    ['a long line', valid.replace('2026-03-09', 'x'.repeat(CHART_LIMITS.lineLength))],
    ['more rows than the limit', `${valid}${Array.from({ length: CHART_LIMITS.rows }, (_, i) => `d${i}: 1 | 1`).join('\n')}\n`],
    ['a huge body', `${valid}${'a: 1 | 1\n'.repeat(200_000)}`],
  ])('refuses %s, and the fence stays a code block', (_what, body) => {
    expect(parseChart(body)).toBeNull();
    expect(chartHtml(body, '1')).toBeNull();
    expect(chartSvgForPrint('chart', body)).toBeNull();
    const html = markdownToSafeHtml(fence(body));
    expect(html.startsWith('<pre><code class="language-chart">')).toBe(true);
    expect(html).not.toContain('<svg');
  });

  it('carries the locale it is drawn in on its third line, and reads back without it as before', () => {
    const german = { ...days, locale: 'de-DE' };
    expect(writeChart(german)).toBe(
      'hours_by_day: Hours by day\nunit: minutes\nlocale: de-DE\nseries: Billable | Not billable\n2026-03-09: 90 | 45\n2026-03-10: 0 | 0\n2026-03-11: 425 | 0\n',
    );
    expect(parseChart(writeChart(german))).toEqual(german);
    expect(parseChart(writeChart(days))).not.toHaveProperty('locale');
    // A label that reads like the line is a category where categories stand.
    const named = { ...projects, rows: [{ label: 'locale', values: [1, 2] }] };
    expect(parseChart(writeChart(named))).toEqual(named);
    expect(() => writeChart({ ...days, locale: 'de-de' })).toThrow('does not read back');
  });

  it.each([
    ['a tag in another spelling than its canonical one', 'de-de'],
    ['a tag that is not BCP 47', 'not a tag'],
    ['an empty tag', ''],
    ['a tag of 36 characters', `en-${'a'.repeat(8)}-${'b'.repeat(8)}-${'c'.repeat(8)}-${'d'.repeat(6)}`],
    ['a second locale line', 'de\nlocale: fr'],
    ['script in place of a tag', '<script>'],
  ])('refuses a locale line with %s', (_what, tag) => {
    expect(parseChart(valid.replace('unit: minutes\n', `unit: minutes\nlocale: ${tag}\n`))).toBeNull();
  });

  it('refuses a locale line anywhere but between the unit and the series', () => {
    expect(parseChart(valid.replace('hours_by_day: Hours by day\n', 'locale: de\nhours_by_day: Hours by day\n'))).toBeNull();
    expect(parseChart(valid.replace('series: Billable | Not billable\n', 'series: Billable | Not billable\nlocale: de\n'))).toBeNull();
    expect(parseChart(`${valid}locale: de\n`)).toBeNull();
  });

  it('takes 400 rows, not 401', () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `d${i}`, values: [i, 1] }));
    expect(parseChart(writeChart({ ...days, rows: rows(CHART_LIMITS.rows) }))?.rows).toHaveLength(CHART_LIMITS.rows);
    expect(() => writeChart({ ...days, rows: rows(CHART_LIMITS.rows + 1) })).toThrow();
    const german = { ...days, locale: 'de' };
    expect(parseChart(writeChart({ ...german, rows: rows(CHART_LIMITS.rows) }))?.rows).toHaveLength(CHART_LIMITS.rows);
    expect(() => writeChart({ ...german, rows: rows(CHART_LIMITS.rows + 1) })).toThrow();
  });
});

describe('a chart in a locale', () => {
  const amounts: ChartData = {
    kind: 'amount_by_client',
    title: 'Amount by client (EUR)',
    unit: 'EUR',
    series: ['Amount'],
    rows: [
      { label: 'Acme', values: [150000] },
      { label: 'Globex', values: [49550] },
    ],
  };
  // German puts a no-break space between the amount and its sign.
  const nb = (text: string) => text.replaceAll(' €', '\u00a0€');

  it('writes amounts, the axis and the data table in it', () => {
    const html = chartHtml(writeChart({ ...amounts, locale: 'de-DE' }), '1') ?? '';
    expect(texts(html)).toEqual(expect.arrayContaining(['0 €', '500 €', '1.000 €', '1.500 €', '1.500,00 €', '495,50 €'].map(nb)));
    // What a screen reader hears is in the chart's language too.
    expect(html).toContain(nb('<desc>Balkendiagramm mit 2 Kunden. Gesamt 1.995,50 €. Größter Wert: Acme, 1.500,00 €.</desc>'));
    expect(html).toContain(nb('<td class="align-right">495,50 €</td>'));
    expect(html).toContain(nb('<strong>1.995,50 €</strong>'));
    expect(html).not.toContain('€1,500');
    // Without the line, English, as charts were drawn before it existed.
    const english = chartHtml(writeChart(amounts), '1') ?? '';
    expect(texts(english)).toEqual(expect.arrayContaining(['€0', '€500', '€1,000', '€1,500', '€1,500.00', '€495.50']));
    expect(texts(chartHtml(writeChart({ ...amounts, locale: 'en' }), '1'))).toEqual(texts(english));
  });

  it('writes days, months and hours on the axes in it', () => {
    const svg = (locale?: string, rows = days.rows) =>
      texts(chartSvgForPrint('chart', writeChart({ ...days, rows, ...(locale ? { locale } : {}) })));
    expect(svg()).toEqual(expect.arrayContaining(['9 Mar', '10 Mar', '11 Mar', '0 h', '2 h', '4 h', '6 h', '8 h']));
    expect(svg('fr')).toEqual(expect.arrayContaining(['9 mars', '11 mars', '8 h']));
    expect(svg('ja')).toEqual(expect.arrayContaining(['3月9日', '3月11日']));
    expect(svg('en-US')).toEqual(expect.arrayContaining(['Mar 9', 'Mar 11']));
    const halves = [{ label: '2026-03-09', values: [90, 0] }];
    expect(svg('de', halves)).toEqual(expect.arrayContaining(['0,5 h', '1,5 h']));
    expect(svg(undefined, halves)).toEqual(expect.arrayContaining(['0.5 h', '1.5 h']));
    const months = [
      { label: '2025-12', values: [600, 0] },
      { label: '2026-01', values: [60, 0] },
    ];
    expect(svg('de', months)).toEqual(expect.arrayContaining(['Dez. 2025', 'Jan. 2026']));
    expect(svg(undefined, months)).toEqual(expect.arrayContaining(['Dec 2025', 'Jan 2026']));
  });
});

describe('a chart on a page', () => {
  const html = markdownToSafeHtml(`Before\n\n${fence(writeChart(projects))}\nAfter\n`);

  it('is a figure with an accessible SVG, a legend and a data table', () => {
    expect(html).toMatch(/<figure class="chart">\n<figcaption>Hours by project<\/figcaption>/);
    expect(html).toMatch(
      /<svg [^>]*role="img"[^>]*><title>Hours by project<\/title><desc>Bar chart of 2 projects, Billable and Not billable stacked\. Total 12h 30m/,
    );
    expect(html).toMatch(
      /<\/defs><g><rect [^>]*class="chart-s1"\/><text [^>]*>Billable<\/text><rect [^>]*class="chart-s2" fill="url\(#chart-hatch-[a-z0-9]+-1\)"\/><text [^>]*>Not billable<\/text><\/g>/,
    );
    expect(html).toContain('<details class="chart-data"><summary>Data</summary>');
    expect(html).toContain(
      '<th scope="col">Project</th><th scope="col">Billable</th><th scope="col">Not billable</th><th scope="col">Total</th>',
    );
    expect(html).toContain('<td class="align-right">10h 00m</td><td class="align-right">0h 30m</td><td class="align-right">10h 30m</td>');
    expect(html).toContain('<p>Before</p>');
    expect(html).toContain('<p>After</p>');
  });

  it('escapes names and carries no style or script', () => {
    expect(html).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39; | pipes: 5 | 3');
    // Every tag in the output is one the chart means to write.
    const tags = new Set([...html.matchAll(/<([a-z]+)[\s>/]/g)].map((m) => m[1]));
    expect([...tags].sort()).toEqual(
      [
        'defs',
        'desc',
        'details',
        'div',
        'figcaption',
        'figure',
        'g',
        'line',
        'p',
        'path',
        'pattern',
        'rect',
        'strong',
        'summary',
        'svg',
        'table',
        'tbody',
        'td',
        'text',
        'th',
        'thead',
        'title',
        'tr',
      ].sort(),
    );
  });

  it('hatches the second series with a pattern of its own', () => {
    const id = /<pattern id="(chart-hatch-[a-z0-9]+-1)"/.exec(html)?.[1];
    expect(id).toBeDefined();
    expect(html).toContain(`class="chart-s2" fill="url(#${id})"`);
    // Two charts, each drawn wide and narrow: four patterns, none sharing an id.
    const two = markdownToSafeHtml(`${fence(writeChart(projects))}\n${fence(writeChart(projects))}`);
    expect(new Set([...two.matchAll(/<pattern id="([^"]+)"/g)].map((m) => m[1])).size).toBe(4);
  });

  it('draws each chart twice, 640 and 360 wide, the same figures in both', () => {
    for (const data of [days, projects]) {
      const page = chartHtml(writeChart(data), '1') ?? '';
      const [wide = '', narrow = ''] = drawings(page);
      expect(wide).toMatch(/^<svg [^>]*class="chart-svg chart-wide" viewBox="0 0 640 \d+" width="640"/);
      expect(narrow).toMatch(/^<svg [^>]*class="chart-svg chart-narrow" viewBox="0 0 360 \d+" width="360"/);
      // One title and description a screen reader hears, the same rectangles, the same totals.
      const heard = (svg: string) => /<title>.*?<\/desc>/.exec(svg)?.[0];
      expect(heard(narrow)).toBe(heard(wide));
      expect(occurrences(narrow, '<rect ')).toBe(occurrences(wide, '<rect '));
      expect(texts(narrow).filter((t) => /\dh \d\dm$/.test(t))).toEqual(texts(wide).filter((t) => /\dh \d\dm$/.test(t)));
      expect(narrow).toContain(`fill="url(#${/<pattern id="([^"]+)"/.exec(narrow)?.[1] ?? 'none'})"`);
    }
  });

  it("keeps every text of the narrow drawing inside it, a bar's name above its bar", () => {
    const long = {
      ...projects,
      rows: [
        { label: 'A project with a name long enough to be shortened', values: [6_000, 600] },
        { label: 'Short', values: [60, 0] },
      ],
    };
    const money: ChartData = {
      ...long,
      kind: 'amount_by_client',
      unit: 'EUR',
      series: ['Amount'],
      rows: [
        { label: 'Client', values: [100_000_000] },
        { label: 'Another', values: [45_000_000] },
      ],
    };
    for (const data of [days, long, money, japanese]) {
      const narrow = drawings(chartHtml(writeChart(data), '1') ?? '')[1] ?? '';
      expect(outside(narrow, 360)).toEqual([]);
    }
    const narrow = drawings(chartHtml(writeChart(long), '1') ?? '')[1] ?? '';
    const name = placedTexts(narrow).find((t) => t.text.startsWith('A project'));
    const bar = /<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"[^>]*class="chart-s1"/.exec(narrow.slice(narrow.indexOf('</g>')));
    expect(name?.anchor).toBe('start');
    expect(Number(bar?.[1])).toBe(name?.x);
    expect(Number(bar?.[2])).toBeGreaterThan(name?.y ?? Infinity);
    // The largest bar takes most of the phone's width, not what a column of names leaves it.
    expect(Number(bar?.[3])).toBeGreaterThan(200);
  });

  it('fits a Chinese, Japanese or Korean name to its room, wide and narrow, and spaces the legend for it', () => {
    const [wide = '', narrow = ''] = drawings(chartHtml(writeChart(japanese), '1') ?? '');
    expect(outside(wide, 640)).toEqual([]);
    expect(outside(narrow, 360)).toEqual([]);
    const name = (svg: string) => placedTexts(svg).find((t) => t.text.startsWith('顧客'))?.text;
    // Wide, the column of names holds 13 of its 26 characters; narrow, the line above the bar all of them.
    expect(name(wide)).toBe('顧客ポータルの全面リニュー…');
    expect(name(narrow)).toBe('顧客ポータルの全面リニューアルと決済フローの改善作業');
    // The second swatch starts past the first name: 20 px of swatch, 48 px of name, a gap.
    const swatches = [...wide.matchAll(/<rect x="([\d.]+)" y="6" width="14"/g)].map((m) => Number(m[1]));
    expect(swatches[1]).toBeGreaterThanOrEqual(20 + 48 + 16);
  });

  it('puts a legend too wide for the narrow drawing on a second line, the wide one on one', () => {
    const series = ['Billable time of the team members', 'Time nobody bills to a client'];
    const body = writeChart({ ...days, series });
    const [wide = '', narrow = ''] = drawings(chartHtml(body, '1') ?? '');
    const legendY = (svg: string) =>
      placedTexts(svg)
        .filter((t) => series.includes(t.text))
        .map((t) => t.y);
    expect(legendY(wide)).toEqual([17.5, 17.5]);
    expect(legendY(narrow)).toEqual([17.5, 37.5]);
    // The plot moves down by the line it added.
    const gridTop = (svg: string) =>
      Math.min(...[...svg.matchAll(/<line x1="[\d.]+" x2="[\d.]+" y1="([\d.]+)"/g)].map((m) => Number(m[1])));
    expect(gridTop(narrow) - gridTop(wide)).toBe(20);
  });

  it("names at most four columns along the narrow drawing's axis, seven along the wide one", () => {
    const month = {
      ...days,
      rows: Array.from({ length: 30 }, (_, i) => ({ label: `2026-11-${String(i + 1).padStart(2, '0')}`, values: [60, 0] })),
    };
    const [wide = '', narrow = ''] = drawings(chartHtml(writeChart(month), '1') ?? '');
    const axis = (svg: string) => placedTexts(svg).filter((t) => / Nov$/.test(t.text)).length;
    expect(axis(wide)).toBe(6);
    expect(axis(narrow)).toBe(4);
  });

  it('gives the same bytes for the same data', () => {
    expect(markdownToSafeHtml(fence(writeChart(days)))).toBe(markdownToSafeHtml(fence(writeChart(days))));
    expect(chartSvgForPrint('chart', writeChart(days))).toBe(chartSvgForPrint('chart', writeChart(days)));
  });

  it('draws 400 days well under 5 ms', () => {
    const body = writeChart({ ...days, rows: Array.from({ length: 400 }, (_, i) => ({ label: `d${i}`, values: [i * 3, 400 - i] })) });
    for (let i = 0; i < 20; i++) chartHtml(body, '1');
    // CPU time, the best of several batches: a machine busy with other work delays a test, it
    // does not make the drawing costlier.
    const batches = Array.from({ length: 10 }, () => {
      const start = process.cpuUsage();
      for (let i = 0; i < 10; i++) chartHtml(body, '1');
      const used = process.cpuUsage(start);
      return (used.user + used.system) / 1000 / 10;
    });
    expect(Math.min(...batches)).toBeLessThan(5);
  });
});

describe('chartSvgForPrint', () => {
  it('writes a standalone SVG with explicit paint and no classes', () => {
    const svg = chartSvgForPrint('chart', writeChart(projects));
    expect(svg).toMatch(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" font-family="[^"]+" viewBox="0 0 640 \d+" width="640" height="\d+"/,
    );
    expect(svg).not.toMatch(/class=|<style|\sstyle=|<script|var\(/);
    expect(svg).toContain('fill="#555555"');
    expect(svg).toMatch(/<pattern id="(chart-hatch-[a-z0-9]+)"[^>]*><rect [^>]*fill="#ffffff"\/><path [^>]*stroke="#000000"/);
    expect(svg).toContain('&lt;script&gt;');
    expect(svg?.endsWith('</svg>')).toBe(true);
  });

  it('answers null for another fence or a body that is not a chart', () => {
    expect(chartSvgForPrint('js', writeChart(days))).toBeNull();
    expect(chartSvgForPrint('chart', 'hours_by_day: x\n')).toBeNull();
    expect(chartSvgForPrint(' chart ', writeChart(days))).not.toBeNull();
  });
});

function input(overrides: Partial<RenderInput['aggregates']> = {}, moneyVisible = true): RenderInput {
  return {
    report: { id: 'r1', name: 'March', note: null, version: 1 },
    period: { from: '2026-03-09', to: '2026-03-15', preset: null },
    timezone: 'UTC',
    generatedAt: '2026-03-16T08:00:00.000Z',
    owner: { id: 'u1', name: 'Ada', email: 'ada@example.com' },
    workspaces: [{ id: 'w1', name: 'Acme' }],
    template: { id: 't1', name: 'Charts' },
    entries: null,
    aggregates: {
      totalMinutes: 560,
      entryCount: 3,
      moneyVisible,
      byProject: [],
      byUser: [{ id: 'u1', name: HOSTILE, minutes: 560, entryCount: 3, billableMinutes: 500, nonBillableMinutes: 60 }],
      byTag: [],
      byDay: [
        { date: '2026-03-09', minutes: 135, entryCount: 2, billableMinutes: 90, nonBillableMinutes: 45 },
        { date: '2026-03-11', minutes: 425, entryCount: 1, billableMinutes: 425, nonBillableMinutes: 0 },
      ],
      ...overrides,
    },
  };
}

const render = async (source: string, data: RenderInput) => renderTemplate(source, buildRenderContext(data));

describe('the chart tag', () => {
  it('writes every day of the period, days without time as zeros', async () => {
    const out = await render('Intro\n\n{% chart "hours_by_day" %}\n\nOutro', input());
    const [chart] = chartsIn(out);
    expect(chart?.rows.map((r) => `${r.label} ${r.values.join(' ')}`)).toEqual([
      '2026-03-09 90 45',
      '2026-03-10 0 0',
      '2026-03-11 425 0',
      '2026-03-12 0 0',
      '2026-03-13 0 0',
      '2026-03-14 0 0',
      '2026-03-15 0 0',
    ]);
    expect(out.startsWith('Intro\n\n```chart\nhours_by_day: Hours by day\n')).toBe(true);
    expect(out.endsWith('```\n\nOutro')).toBe(true);
  });

  it('sums by month a period longer than 400 days', async () => {
    const data = input();
    const out = await render('{% chart "hours_by_day" %}', { ...data, period: { from: '2025-01-01', to: '2026-03-31', preset: null } });
    const [chart] = chartsIn(out);
    expect(chart?.title).toBe('Hours by month');
    expect(chart?.rows).toHaveLength(15);
    expect(chart?.rows.at(-1)).toEqual({ label: '2026-03', values: [515, 45] });
  });

  it('shows the first `limit` projects and the rest as Other', async () => {
    const byProject = Array.from({ length: 12 }, (_, i) => ({
      id: `p${i}`,
      name: `Project ${String(i).padStart(2, '0')}`,
      minutes: 1000 - i,
      entryCount: 1,
      billableMinutes: 100 + i,
      nonBillableMinutes: 10,
    }));
    const out = await render('{% chart "hours_by_project", limit: 8 %}', input({ byProject }));
    const [chart] = chartsIn(out);
    expect(chart?.rows.map((r) => r.label)).toEqual([...byProject.slice(0, 8).map((p) => p.name), 'Other (4 projects)']);
    // Tracked minutes: those of billable entries (minutes less the not billable ones), then the rest.
    expect(chart?.rows[0]?.values).toEqual([990, 10]);
    expect(chart?.rows.at(-1)?.values).toEqual([982 + 981 + 980 + 979, 40]);
    const all = chartsIn(await render('{% chart "hours_by_project" %}', input({ byProject })))[0];
    expect(all?.rows).toHaveLength(11);
  });

  it('charts people with their names as written', async () => {
    const [chart] = chartsIn(await render('{% chart "hours_by_person" %}', input()));
    expect(chart?.rows).toEqual([{ label: HOSTILE, values: [500, 60] }]);
    const byUser = ['Ada', 'Bob', 'Cy'].map((name, i) => ({ id: `u${i}`, name, minutes: 30 - i, entryCount: 1, nonBillableMinutes: 0 }));
    const [limited] = chartsIn(await render('{% chart "hours_by_person", limit: 1 %}', input({ byUser })));
    expect(limited?.rows.map((r) => r.label)).toEqual(['Ada', 'Other (2 people)']);
  });

  it('writes one amount chart per currency, and none where money is not shown', async () => {
    const byClient = [
      {
        id: 'c1',
        name: 'Acme',
        minutes: 300,
        entryCount: 2,
        amounts: [
          { currency: 'EUR', minor: 49500 },
          { currency: 'USD', minor: 11250 },
        ],
      },
      { id: 'c2', name: 'Globex', minutes: 200, entryCount: 1, amounts: [{ currency: 'EUR', minor: 90000 }] },
      { id: null, name: 'No client', minutes: 60, entryCount: 1, amounts: [] },
    ];
    const amounts = [
      { currency: 'EUR', minor: 139500 },
      { currency: 'USD', minor: 11250 },
    ];
    const out = await render('{% chart "amount_by_client" %}', input({ byClient, amounts }));
    expect(chartsIn(out)).toEqual([
      {
        kind: 'amount_by_client',
        title: 'Amount by client (EUR)',
        unit: 'EUR',
        series: ['Amount'],
        rows: [
          { label: 'Globex', values: [90000] },
          { label: 'Acme', values: [49500] },
        ],
      },
      {
        kind: 'amount_by_client',
        title: 'Amount by client (USD)',
        unit: 'USD',
        series: ['Amount'],
        rows: [{ label: 'Acme', values: [11250] }],
      },
    ]);
    const html = markdownToSafeHtml(out);
    expect(html).toContain('<td class="align-right">€900.00</td>');
    expect(html).toContain('>Amount (USD)</text>');
    expect(await render('{% chart "amount_by_client" %}', input({ byClient, amounts }, false))).toBe('');
  });

  it('names the report’s locale in each chart when it is not English', async () => {
    const data = (locale: string): RenderInput => ({
      ...input({
        byClient: [{ id: 'c1', name: 'Acme', minutes: 300, entryCount: 2, amounts: [{ currency: 'EUR', minor: 49500 }] }],
        amounts: [{ currency: 'EUR', minor: 49500 }],
      }),
      options: { rounding: { mode: 'none' }, hideAmounts: false, billable: 'all', durationFormat: 'hm', locale },
    });
    const source = '{% chart "hours_by_day" %}\n\n{% chart "amount_by_client" %}';
    const german = await render(source, data('de-DE'));
    expect(chartsIn(german).map((c) => c?.locale)).toEqual(['de-DE', 'de-DE']);
    // Its title, series and data table in German too (packages/document phrases.ts).
    expect(german).toContain('amount_by_client: Betrag pro Kunde (EUR)\nunit: EUR\nlocale: de-DE\nseries: Betrag\n');
    expect(german).toContain('hours_by_day: Stunden pro Tag\nunit: minutes\nlocale: de-DE\nseries: Abrechenbar | Nicht abrechenbar\n');
    expect(markdownToSafeHtml(german)).toContain('<summary>Daten</summary>');
    expect(markdownToSafeHtml(german)).toContain('<th scope="col">Kunde</th>');
    expect(markdownToSafeHtml(german)).toContain('<td class="align-right">495,00\u00a0€</td>');
    const english = await render(source, data('en'));
    expect(english).not.toContain('locale:');
    expect(english).toContain('amount_by_client: Amount by client (EUR)\nunit: EUR\nseries: Amount\n');
    expect(markdownToSafeHtml(english)).toContain('<summary>Data</summary>');
    expect(chartsIn(english).map((c) => c?.locale)).toEqual([undefined, undefined]);
  });

  it('writes nothing for a period without time', async () => {
    const empty = input({ totalMinutes: 0, entryCount: 0, byDay: [], byUser: [] });
    expect(await render('{% chart "hours_by_day" %}{% chart "hours_by_person" %}', empty)).toBe('');
  });

  it('reads the context as Chronicle built it, whatever the template assigns', async () => {
    const out = await render('{% assign groups = "x" %}{% chart "hours_by_person" %}', input());
    expect(chartsIn(out)[0]?.rows).toHaveLength(1);
  });

  it.each([
    ['{% chart "pie" %}', /^line 1, column 1: unknown chart "pie": use one of "hours_by_day"/],
    ['{% chart %}', /chart expects a chart name in quotes/],
    ['{% chart name %}', /chart expects a chart name in quotes/],
    ['\n  {% chart "hours_by_project", limit: 0 %}', /^line 2, column 3: chart limit must be a whole number from 1 to 50$/],
    ['{% chart "hours_by_project", limit: 51 %}', /limit must be a whole number from 1 to 50/],
    ['{% chart "hours_by_project", limit: 2.5 %}', /limit must be a whole number from 1 to 50/],
    ['{% chart "hours_by_project", limit: "8" %}', /limit must be a whole number from 1 to 50/],
    ['{% chart "hours_by_project", limit: n %}', /limit must be a whole number from 1 to 50/],
    ['{% chart "hours_by_day", limit: 5 %}', /"hours_by_day" takes no limit/],
    ['{% chart "hours_by_person", size: 5 %}', /takes no argument 'size'/],
  ])('refuses %j when the template is saved', (source, message) => {
    let error: unknown;
    try {
      checkTemplateSyntax(source);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(TemplateError);
    expect((error as TemplateError).kind).toBe('syntax');
    expect((error as TemplateError).message).toMatch(message);
  });

  it('counts its output against the render limits', async () => {
    const source = '{% chart "hours_by_day" %}';
    const context = buildRenderContext(input());
    await expect(renderTemplate(source, context, { timeMs: 2_000, memory: 32_000_000, output: 100 })).rejects.toThrow(
      /output size limit exceeded/,
    );
    await expect(renderTemplate(source, context, { timeMs: 2_000, memory: 50, output: 2_000_000 })).rejects.toThrow(
      /memory limit exceeded/,
    );
  });
});
