import MarkdownIt from 'markdown-it';
import type { RendererRule, Token } from 'markdown-it';
import { chartHtml } from './chart.js';
import { CHART_INFO } from './chart-format.js';

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
  /**
   * The title the page already shows. A body that opens with a level-1 heading reading exactly
   * this is shown without it, so reports rendered by templates that repeat the name (every
   * version before the built-in templates stopped doing so) do not show their title twice.
   */
  omitTitle?: string;
}

/** Schemes a reader may follow. Relative URLs are refused too: the page's own origin has nothing for them. */
const SAFE_HREF = /^(?:https?:|mailto:|#)/i;

const LINK_REL = 'noopener noreferrer nofollow';

const ALIGN_STYLE = /^text-align:(left|center|right)$/;

const HEADING_OFFSET = Symbol('headingOffset');
const CHART_COUNT = Symbol('chartCount');
const OMIT_TITLE = Symbol('omitTitle');

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

/** Whether a cell's content is bold from end to end (`**Total**`); empty cells count as neither. */
function isBoldCell(inline: Token | undefined): boolean | null {
  const children = (inline?.children ?? []).filter((c) => !(c.type === 'text' && c.content.trim() === ''));
  if (children.length === 0) return null;
  if (children[0]?.type !== 'strong_open' || children.at(-1)?.type !== 'strong_close') return false;
  // `**a** and **b**` opens and closes bold twice: only one span around everything counts.
  let depth = 0;
  for (const [i, child] of children.entries()) {
    if (child.type === 'strong_open') depth += 1;
    if (child.type === 'strong_close') depth -= 1;
    if (depth === 0 && i < children.length - 1) return false;
  }
  return true;
}

/**
 * Marks total rows so they can stand out: a body row whose every non-empty cell is bold gets
 * `class="total"`, and when it is the table's last row also `grand-total`. Markdown has no
 * other way to say "this is a subtotal", and the convention is what the built-in templates write.
 */
md.core.ruler.push('total_rows', (state) => {
  const tokens = state.tokens;
  let lastRow: Token | null = null;
  let lastWasTotal = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (!token) continue;
    if (token.type === 'tbody_open') {
      lastRow = null;
      lastWasTotal = false;
    } else if (token.type === 'tr_open' && tokens[i + 1]?.type === 'td_open') {
      let bold = 0;
      let plain = 0;
      for (let j = i + 1; j < tokens.length && tokens[j]?.type !== 'tr_close'; j++) {
        if (tokens[j]?.type !== 'td_open') continue;
        const verdict = isBoldCell(tokens[j + 1]);
        if (verdict === true) bold += 1;
        else if (verdict === false) plain += 1;
      }
      lastRow = token;
      lastWasTotal = bold > 0 && plain === 0;
      if (lastWasTotal) token.attrJoin('class', 'total');
    } else if (token.type === 'tbody_close' && lastRow && lastWasTotal) {
      lastRow.attrJoin('class', 'grand-total');
    }
  }
});

/** Drops a leading `# <title>` that repeats what the page already shows (see `omitTitle`). */
md.core.ruler.push('omit_title', (state) => {
  const env = state.env as Record<symbol, unknown> | undefined;
  const title = env?.[OMIT_TITLE];
  if (typeof title !== 'string' || title.trim() === '') return;
  const [open, inline] = state.tokens;
  if (open?.type !== 'heading_open' || open.tag !== 'h1' || !inline) return;
  const text = (inline.children ?? []).map((c) => (c.type === 'text' || c.type === 'code_inline' ? c.content : '')).join('');
  if (text.trim() === title.trim()) state.tokens.splice(0, 3);
});

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

const codeBlock = rules.fence;

/**
 * A fence whose info string is `chart` is drawn as a chart (chart.ts, docs/templates.md "Charts");
 * one that does not read as a chart, or any other fence, stays a code block.
 */
rules.fence = (tokens, idx, options, env: Record<symbol, unknown> | undefined, self) => {
  const token = tokenAt(tokens, idx);
  if (token.info.trim() === CHART_INFO && env) {
    const count = typeof env[CHART_COUNT] === 'number' ? env[CHART_COUNT] + 1 : 1;
    env[CHART_COUNT] = count;
    const html = chartHtml(token.content, String(count));
    if (html !== null) return html;
  }
  return codeBlock ? codeBlock(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
};

/**
 * Renders author-written Markdown to HTML that is safe to embed in a page served
 * under `default-src 'none'`: no raw HTML, no `style` attributes, no images, charts as inline SVG
 * without style or script, and
 * only `http:`, `https:`, `mailto:` and `#fragment` links (each with
 * `rel="noopener noreferrer nofollow"`). Unsafe links are left as plain text.
 */
export function markdownToSafeHtml(markdown: string, options: MarkdownRenderOptions = {}): string {
  const offset = Math.max(0, Math.trunc(options.headingOffset ?? 0));
  return md.render(markdown, { [HEADING_OFFSET]: offset, [OMIT_TITLE]: options.omitTitle, [CHART_COUNT]: 0 });
}

/**
 * The tokens `markdownToSafeHtml` renders, for renderers of other formats (the PDF export): the
 * same parser, link allowlist, total-row classes (`total`, `grand-total` on `tr_open`) and
 * omitted title, so every format reads a document the same way.
 */
export function parseSafeMarkdown(markdown: string, options: Pick<MarkdownRenderOptions, 'omitTitle'> = {}): Token[] {
  return md.parse(markdown, { [OMIT_TITLE]: options.omitTitle });
}
