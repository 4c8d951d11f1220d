/**
 * A Chronicle document: the front matter and Markdown body of a version (document.ts), the
 * one safe Markdown-to-HTML renderer (markdown.ts) and the one stylesheet of rendered documents
 * (document-css.ts), and the charts documents carry (chart-format.ts, chart.ts). The server renders and stores documents, the web app shows them; both import
 * this package and neither imports the other.
 */
export * from './branding.js';
export * from './chart.js';
export * from './chart-format.js';
export * from './document.js';
export * from './document-css.js';
export * from './markdown.js';
export * from './phrases.js';
export * from './reactions.js';
