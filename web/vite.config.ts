/**
 * The web app's build (docs/web.md): sources in web/, output in dist/web, served by the API
 * process under /app/. Hashed file names let the server cache assets for a year.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  plugins: [react()],
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
