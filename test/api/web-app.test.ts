/**
 * The web app as the server serves it (docs/web.md): the HTML under a strict CSP and never cached,
 * hashed assets cached for a year, text files compressed for browsers that accept it, every screen
 * path answered with the app, nothing in OpenAPI.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webAppDir } from '../../src/http/web-app.js';
import { decoded } from '../helpers/encodings.js';
import { buildTestApp, type TestContext } from '../helpers/test-app.js';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const get = (url: string) => t.request('GET', url, { token: null });

/** A GET with `Accept-Encoding`, its body as bytes. */
async function fetchEncoded(url: string, acceptEncoding: string | null, headers: Record<string, string> = {}) {
  const res = await t.app.inject({
    method: 'GET',
    url,
    headers: { ...headers, ...(acceptEncoding === null ? {} : { 'accept-encoding': acceptEncoding }) },
  });
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload };
}

/** Every file of the build but the compressed copies, as paths under dist/web. */
function builtFiles(dir = webAppDir()): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return builtFiles(path);
    return /\.(?:br|gz)$/.test(entry.name) ? [] : [path];
  });
}

describe('the web app', () => {
  it('sends / and /app to /app/', async () => {
    expect((await get('/')).headers.location).toBe('/app/');
    expect((await get('/app')).headers.location).toBe('/app/');
  });

  it.each(['/app/', '/app/inbox', '/app/reports/0193-x/edit', '/app/set-password', '/app/index.html'])(
    'answers %s with the app under a strict CSP, never cached',
    async (url) => {
      const res = await get(url);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|data:/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      // Every script and stylesheet is a same-origin file: nothing inline for the CSP to refuse.
      expect(res.text).toMatch(/<script type="module" crossorigin src="\/app\/assets\/index-[\w-]+\.js"><\/script>/);
      expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(res.text).not.toMatch(/<style|style=/);
    },
  );

  it("is React's production build, whoever built it (the suite builds it under NODE_ENV=test)", async () => {
    const html = (await get('/app/')).text;
    const entry = /<script type="module"[^>]* src="(\/app\/assets\/index-[\w-]+\.js)"/.exec(html)?.[1];
    expect(entry, html).toBeDefined();
    const script = (await get(entry!)).text;
    // React's development bundle points to its DevTools and names its checks; the production one neither.
    expect(script.includes('react.dev/link/react-devtools'), `${entry!} is React's development bundle`).toBe(false);
    expect(script.includes('react.dev/errors/'), `${entry!} has React's production error codes`).toBe(true);
  });

  it('caches hashed assets for a year', async () => {
    const assets = readdirSync(join(webAppDir(), 'assets')).filter((name) => !/\.(?:br|gz)$/.test(name));
    expect(assets.some((name) => name.endsWith('.js'))).toBe(true);
    for (const name of assets) {
      const res = await get(`/app/assets/${name}`);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('builds a Brotli and a gzip copy of every script, stylesheet and page, each the same text', () => {
    const texts = builtFiles().filter((path) => /\.(?:html|js|css)$/.test(path));
    expect(texts.length).toBeGreaterThan(3);
    for (const path of texts) {
      const original = readFileSync(path);
      if (original.length < 200) continue;
      for (const [suffix, decode] of [
        ['.br', brotliDecompressSync],
        ['.gz', gunzipSync],
      ] as const) {
        expect(existsSync(path + suffix), `${path}${suffix}`).toBe(true);
        const copy = readFileSync(path + suffix);
        expect(copy.length).toBeLessThan(original.length);
        expect(decode(copy).equals(original)).toBe(true);
      }
    }
  });

  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0.5, gzip;q=1', 'gzip'],
    ['identity', undefined],
    [null, undefined],
  ])('sends each file as Accept-Encoding %j asks: %s', async (accept, encoding) => {
    const texts = builtFiles().filter((path) => existsSync(`${path}.br`));
    expect(texts.some((path) => path.endsWith('.js'))).toBe(true);
    for (const path of texts) {
      const url = `/app/${relative(webAppDir(), path)}`;
      const res = await fetchEncoded(url, accept);
      expect(res.status, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe(encoding);
      expect(res.headers.vary).toBe('Accept-Encoding');
      // The same headers as the file sent as it is: its type, caching and (for the page) its CSP.
      const plain = await get(url);
      for (const name of ['content-type', 'cache-control', 'content-security-policy', 'x-frame-options', 'x-content-type-options']) {
        expect(res.headers[name], `${url} ${name}`).toBe(plain.headers[name]);
      }
      expect(Number(res.headers['content-length'])).toBe(res.bytes.length);
      const body = Buffer.from(decoded(res), 'utf8');
      expect(body.equals(readFileSync(path)), url).toBe(true);
      if (encoding) expect(res.bytes.length).toBeLessThan(body.length);
    }
  });

  it('sends a screen compressed with the same headers, and each encoding revalidates on its own', async () => {
    const plain = await get('/app/reports');
    const res = await fetchEncoded('/app/reports', 'gzip, deflate, br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.bytes).toString()).toBe(plain.text);
    for (const name of ['content-type', 'cache-control', 'content-security-policy', 'x-frame-options', 'referrer-policy']) {
      expect(res.headers[name], name).toBe(plain.headers[name]);
    }
    // A cache holds one copy per encoding: their validators differ, and each revalidates as itself.
    const gzip = await fetchEncoded('/app/reports', 'gzip');
    expect(gzip.headers.etag).toBeTruthy();
    expect(gzip.headers.etag).not.toBe(res.headers.etag);
    expect((await fetchEncoded('/app/reports', 'br', { 'if-none-match': String(res.headers.etag) })).status).toBe(304);
    expect((await fetchEncoded('/app/reports', 'gzip', { 'if-none-match': String(gzip.headers.etag) })).status).toBe(304);
    expect((await fetchEncoded('/app/reports', 'gzip', { 'if-none-match': String(res.headers.etag) })).status).toBe(200);
  });

  it('never sends a compressed copy at its own path', async () => {
    const script = readdirSync(join(webAppDir(), 'assets')).find((name) => name.endsWith('.js.br'))!;
    const res = await fetchEncoded(`/app/assets/${script}`, 'br');
    expect(res.status).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
    // Outside assets it is a screen path like any other: the app, as text.
    const page = await fetchEncoded('/app/index.html.gz', null);
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBeUndefined();
    expect(page.bytes.toString()).toContain('<!doctype html>');
  });

  it('answers a missing asset with 404, not the app', async () => {
    const res = await get('/app/assets/index-missing.js');
    expect(res.status).toBe(404);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('leaves the app out of the OpenAPI document and the API unchanged', async () => {
    const doc = (await get('/openapi.json')).body;
    expect(
      Object.keys(doc.paths).filter(
        (p: string) =>
          !p.startsWith('/api/') &&
          ![
            '/metrics',
            '/healthz',
            '/readyz',
            '/openapi.json',
            '/share/{token}',
            '/share/{token}/export.pdf',
            '/share/{token}/export.csv',
            '/branding/{workspaceId}/logo.png',
            '/mail/unsubscribe/{token}',
          ].includes(p),
      ),
    ).toEqual([]);
    expect((await get('/api/v1/nothing')).headers['content-type']).toMatch(/problem\+json/);
  });
});
