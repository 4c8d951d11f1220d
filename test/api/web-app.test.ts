/**
 * The web app as the server serves it (docs/web.md): the HTML under a strict CSP and never cached,
 * hashed assets cached for a year, every screen path answered with the app, nothing in OpenAPI.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webAppDir } from '../../src/http/web-app.js';
import { buildTestApp, type TestContext } from '../helpers/test-app.js';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const get = (url: string) => t.request('GET', url, { token: null });

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

  it('caches hashed assets for a year', async () => {
    const assets = readdirSync(join(webAppDir(), 'assets'));
    expect(assets.some((name) => name.endsWith('.js'))).toBe(true);
    for (const name of assets) {
      const res = await get(`/app/assets/${name}`);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
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
