/**
 * The web app's build (docs/web.md): sources in web/, output in dist/web, served by the API
 * process under /app/. Hashed file names let the server cache assets for a year.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
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

/** Text files worth compressing; images and fonts are compressed formats already. */
const COMPRESSIBLE = /\.(?:html|js|css|svg|json|txt|webmanifest)$/;

/**
 * Writes a Brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside each text file of
 * the build, where it is smaller, for the server to send to browsers that accept them
 * (src/http/web-app.ts, docs/decisions.md "The web app's files are compressed when built"): the
 * most compact encodings, paid for once at build time instead of on every request.
 */
export function precompress(): Plugin {
  let outDir = '';
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
    );
  return {
    name: 'chronicle-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      for (const file of walk(outDir).filter((name) => COMPRESSIBLE.test(name))) {
        const text = readFileSync(file);
        const br = brotliCompressSync(text, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: text.length,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          },
        });
        const gz = gzipSync(text, { level: 9 });
        if (br.length < text.length) writeFileSync(`${file}.br`, br);
        if (gz.length < text.length) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  plugins: [react(), documentCss(), precompress()],
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
