import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_CSS } from '../../packages/document/src/index.js';
import { NOT_FOUND_PAGE } from '../../src/render/share-page.js';
import { documentCss } from '../../web/vite.config.js';

/** The share page's one stylesheet (every viewer page has the same). */
const SHARE_PAGE_CSS = /<style>([\s\S]*?)<\/style>/.exec(NOT_FOUND_PAGE)?.[1] ?? '';
const APP_CSS = readFileSync(new URL('../../web/src/styles.css', import.meta.url), 'utf8');

/** Every `--doc-*` property a stylesheet reads. */
function propertiesRead(css: string): Set<string> {
  return new Set([...css.matchAll(/var\((--doc-[a-z-]+)\)/g)].map(([, name]) => name ?? ''));
}

/** `--doc-*` declarations of a block: name -> value. */
function declarations(block: string): Map<string, string> {
  return new Map([...block.matchAll(/(--doc-[a-z-]+)\s*:\s*([^;}]+)/g)].map(([, name = '', value = '']) => [name, value.trim()]));
}

/** The light `:root` block and the one inside `prefers-color-scheme: dark`. */
function rootBlocks(css: string): { light: Map<string, string>; dark: Map<string, string> } {
  const light = /^:root\s*\{([^}]*)\}/m.exec(css)?.[1] ?? '';
  const dark = /@media \(prefers-color-scheme:\s*dark\)\s*\{\s*:root\s*\{([^}]*)\}/.exec(css)?.[1] ?? '';
  return { light: declarations(light), dark: declarations(dark) };
}

describe('DOCUMENT_CSS, the one stylesheet of a report document', () => {
  it('scopes every rule under .document and reads only --doc-* properties', () => {
    const selectors = [...DOCUMENT_CSS.matchAll(/(?:^|[{}])\s*([^\s@{}][^{}]*)\{/g)].map(([, selector = '']) => selector.trim());
    expect(selectors.length).toBeGreaterThan(20);
    for (const selector of selectors) expect(selector).toMatch(/^\.document(?=[ .:]|$)/);
    expect([...DOCUMENT_CSS.matchAll(/var\((--[a-z-]+)/g)].map(([, name]) => name).filter((name) => !name?.startsWith('--doc-'))).toEqual(
      [],
    );
    expect(DOCUMENT_CSS).not.toMatch(/:root|\bbody\b|\bmain\b/);
  });

  it.each([
    ['the share page', SHARE_PAGE_CSS],
    ['the web app (web/src/styles.css)', APP_CSS],
  ])('has every property it reads defined by %s, its colours for light and dark', (_page, css) => {
    const { light, dark } = rootBlocks(css);
    expect([...propertiesRead(DOCUMENT_CSS)].filter((name) => !light.has(name))).toEqual([]);
    // A colour given outright (not borrowed from the page's own palette, which has its dark values) is given for dark too.
    const ownColours = [...light].filter(([, value]) => /^(#|rgba?\()/.test(value)).map(([name]) => name);
    expect(ownColours.length).toBeGreaterThan(0);
    expect(ownColours.filter((name) => !dark.has(name))).toEqual([]);
  });

  it('reaches the web app as the virtual stylesheet `virtual:document.css`, the very same text', async () => {
    const plugin = documentCss();
    const resolveId = plugin.resolveId as (id: string) => string | null;
    const load = plugin.load as (id: string) => string | null;
    const id = resolveId('virtual:document.css');
    expect(id).toBeTruthy();
    expect(resolveId('./styles.css')).toBeNull();
    expect(load(id ?? '')).toBe(DOCUMENT_CSS);
    expect(load('/web/src/styles.css')).toBeNull();
    // main.tsx imports it, before the app's own rules (which may refine a document's card).
    const main = readFileSync(new URL('../../web/src/main.tsx', import.meta.url), 'utf8');
    expect(main.indexOf("import 'virtual:document.css';")).toBeGreaterThan(-1);
    expect(main.indexOf("import 'virtual:document.css';")).toBeLessThan(main.indexOf("import './styles.css';"));
  });

  it('is not repeated in the web app: styles.css keeps only app rules for .document', () => {
    for (const rule of DOCUMENT_CSS.matchAll(/\.document[^{]*\{/g)) {
      const selector = rule[0].slice(0, -1).trim();
      if (selector === '.document') continue;
      expect(APP_CSS).not.toContain(`${selector} {`);
    }
  });
});
