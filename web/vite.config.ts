/**
 * The web app's build (docs/web.md): sources in web/, output in dist/web, served by the API
 * process under /app/. Hashed file names let the server cache assets for a year.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { DOCUMENT_CSS } from '../packages/document/src/document-css.js';

const DOCUMENT_CSS_ID = 'virtual:document.css';
const RESOLVED_DOCUMENT_CSS_ID = `\0${DOCUMENT_CSS_ID}`;

/**
 * Serves `virtual:document.css`: the report documents' stylesheet, the very text the share page
 * inlines (packages/document, DOCUMENT_CSS). The app's CSP allows stylesheets from its own origin
 * only, so it reaches the app as part of the built CSS file, never as an inline style.
 */
export function documentCss(): Plugin {
  return {
    name: 'chronicle-document-css',
    resolveId(id) {
      return id === DOCUMENT_CSS_ID ? RESOLVED_DOCUMENT_CSS_ID : null;
    },
    load(id) {
      return id === RESOLVED_DOCUMENT_CSS_ID ? DOCUMENT_CSS : null;
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  plugins: [react(), documentCss()],
  resolve: {
    // packages/import reads CSV with csv-parse; its browser build brings the Buffer it needs.
    alias: { 'csv-parse/sync': 'csv-parse/browser/esm/sync' },
  },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    // The strict CSP allows no inline script: never inline the module-preload helper or assets.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
});
