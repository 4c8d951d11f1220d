import MarkdownIt from 'markdown-it';
import type { RendererRule, Token } from 'markdown-it';

/**
 * Markdown -> HTML for pages served to anonymous readers (docs/api.md "Public viewer").
 * Authors are not trusted, so the output is built to pass a strict
 * CSP without weakening it: raw HTML is escaped, inline styles never appear,
 * links are limited to an allowlist of schemes and images are never fetched.
 */

export interface MarkdownRenderOptions {
  /**
   * Levels added to every heading (clamped to h6). A page that owns the `<h1>`
   * passes 1 so a body starting with `# Title` keeps a valid heading order.
   */
  headingOffset?: number;
}

/** Schemes a reader may follow. Relative URLs are refused too: the page's own origin has nothing for them. */
const SAFE_HREF = /^(?:https?:|mailto:|#)/i;

const LINK_REL = 'noopener noreferrer nofollow';

const ALIGN_STYLE = /^text-align:(left|center|right)$/;

const HEADING_OFFSET = Symbol('headingOffset');

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

// Runs on the normalised destination of links, autolinks, reference definitions and
// images, after entities are decoded, so `javascript&#58;` is seen as `javascript:`.
md.validateLink = (url: string): boolean => SAFE_HREF.test(url.trim());

const rules = md.renderer.rules;

/** The token a renderer rule is called for (markdown-it always passes a valid index). */
function tokenAt(tokens: Token[], idx: number): Token {
  const token = tokens[idx];
  if (!token) throw new Error(`no markdown token at ${idx}`);
  return token;
}

rules.link_open = (tokens, idx, options, _env, self) => {
  const token = tokenAt(tokens, idx);
  // validateLink is skipped for an empty destination (`[x]()`); an <a> without href is inert text.
  if (!SAFE_HREF.test(String(token.attrGet('href') ?? ''))) {
    token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'href');
  } else {
    token.attrSet('rel', LINK_REL);
  }
  return self.renderToken(tokens, idx, options);
};

// An <img> pointing at another origin would tell its owner who read the report and
// when; the alt text carries the meaning without the request.
rules.image = (tokens, idx, options, env, self) => {
  const alt = self.renderInlineAsText(tokenAt(tokens, idx).children ?? [], options, env);
  return alt === '' ? '' : `<span class="image-alt">${md.utils.escapeHtml(alt)}</span>`;
};

/** markdown-it aligns cells with `style="text-align:..."`, which the CSP blocks; use a class instead. */
function alignCell(scope: string | null): RendererRule {
  return (tokens, idx, options, _env, self) => {
    const token = tokenAt(tokens, idx);
    const align = ALIGN_STYLE.exec(String(token.attrGet('style') ?? ''))?.[1];
    token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
    if (align) token.attrJoin('class', `align-${align}`);
    if (scope) token.attrSet('scope', scope);
    return self.renderToken(tokens, idx, options);
  };
}

// markdown-it only puts <th> in the header row, so every header cell heads a column.
rules.th_open = alignCell('col');
rules.td_open = alignCell(null);

// The wrapper scrolls a wide table sideways on a phone with CSS alone; it is focusable
// so keyboard users can scroll it too.
rules.table_open = (tokens, idx, options, _env, self) => `<div class="table-wrap" tabindex="0">\n${self.renderToken(tokens, idx, options)}`;
rules.table_close = (tokens, idx, options, _env, self) => `${self.renderToken(tokens, idx, options)}</div>\n`;

const shiftHeading: RendererRule = (tokens, idx, options, env, self) => {
  const token = tokenAt(tokens, idx);
  const offset = env?.[HEADING_OFFSET];
  if (typeof offset === 'number' && offset > 0) {
    token.tag = `h${Math.min(6, Number(token.tag.slice(1)) + offset)}`;
  }
  return self.renderToken(tokens, idx, options);
};

rules.heading_open = shiftHeading;
rules.heading_close = shiftHeading;

/**
 * Renders author-written Markdown to HTML that is safe to embed in a page served
 * under `default-src 'none'`: no raw HTML, no `style` attributes, no images, and
 * only `http:`, `https:`, `mailto:` and `#fragment` links (each with
 * `rel="noopener noreferrer nofollow"`). Unsafe links are left as plain text.
 */
export function markdownToSafeHtml(markdown: string, options: MarkdownRenderOptions = {}): string {
  const offset = Math.max(0, Math.trunc(options.headingOffset ?? 0));
  return md.render(markdown, { [HEADING_OFFSET]: offset });
}
