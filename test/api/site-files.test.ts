/**
 * The files any origin is asked for: the icons (docs/web.md "Icons"), which a browser asks for
 * beside every page, named by the web app and the API reference; robots.txt, which keeps crawlers
 * off (docs/api.md "Share links and crawlers"). Public, cached for a day and revalidated.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webAppDir } from '../../src/http/web-app.js';
import { ICON_SVG } from '../../src/modules/site/site-icon.js';
import { buildTestApp, type TestContext } from '../helpers/test-app.js';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function fetchIcon(url: string, method: 'GET' | 'HEAD' = 'GET', headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method, url, headers });
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The images of an ICO file, read as a browser reads its directory. */
function icoImages(ico: Buffer): { width: number; height: number; bits: number; png: Buffer }[] {
  expect(ico.readUInt16LE(0)).toBe(0);
  expect(ico.readUInt16LE(2)).toBe(1);
  return Array.from({ length: ico.readUInt16LE(4) }, (_, i) => {
    const entry = 6 + 16 * i;
    const size = ico.readUInt32LE(entry + 8);
    const offset = ico.readUInt32LE(entry + 12);
    expect(offset + size).toBeLessThanOrEqual(ico.length);
    return {
      width: ico.readUInt8(entry) || 256,
      height: ico.readUInt8(entry + 1) || 256,
      bits: ico.readUInt16LE(entry + 6),
      png: ico.subarray(offset, offset + size),
    };
  });
}

describe('the files every origin is asked for', () => {
  it('/favicon.ico holds the icon at 16, 32 and 48 pixels, each a PNG of the size its entry gives', async () => {
    const res = await fetchIcon('/favicon.ico');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/x-icon');
    const images = icoImages(res.bytes);
    expect(images.map((image) => [image.width, image.height, image.bits])).toEqual([
      [16, 16, 32],
      [32, 32, 32],
      [48, 48, 32],
    ]);
    for (const image of images) {
      expect(image.png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
      const meta = await sharp(image.png).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', image.width, image.height]);
      // The accent's blue above the clock, and a transparent corner outside the rounded square.
      const pixels = await sharp(image.png).ensureAlpha().raw().toBuffer();
      const pixel = (x: number, y: number) => [...pixels.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4)];
      expect(pixel(image.width / 2, image.width / 16)).toEqual([0x1f, 0x5f, 0xbf, 255]);
      expect(pixel(0, 0)[3]).toBe(0);
    }
  });

  it('/favicon.svg is the drawing the web app and the reference name', async () => {
    const res = await fetchIcon('/favicon.svg');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.bytes.equals(ICON_SVG)).toBe(true);
    const meta = await sharp(res.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['svg', 64, 64]);
    // Nothing in it runs or loads anything.
    expect(res.bytes.toString()).not.toMatch(/<script|href=|url\(|on[a-z]+=/i);
  });

  it.each(['/apple-touch-icon.png', '/apple-touch-icon-precomposed.png'])('%s is 180 pixels, square and opaque', async (url) => {
    const res = await fetchIcon(url);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const meta = await sharp(res.bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['png', 180, 180, false]);
    // Square corners: iOS rounds the icon itself, and a transparent corner would show as black.
    const corner = await sharp(res.bytes).extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer();
    expect([...corner]).toEqual([0x1f, 0x5f, 0xbf]);
  });

  it.each([
    ['/icon-192.png', 192, true],
    ['/icon-512.png', 512, true],
    ['/icon-maskable-512.png', 512, false],
  ] as const)('%s is %i pixels (transparent corners: %s)', async (url, size, rounded) => {
    const res = await fetchIcon(url);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const meta = await sharp(res.bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['png', size, size, rounded]);
    const corner = [...(await sharp(res.bytes).extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer())];
    // The one to be masked fills its square: Android cuts its own shape out of it.
    expect(corner).toEqual(rounded ? [0, 0, 0, 0] : [0x1f, 0x5f, 0xbf]);
  });

  it('/robots.txt turns every crawler away from every path, share links first of all', async () => {
    const res = await t.request('GET', '/robots.txt', { token: null });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const rules = res.text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    expect(rules).toEqual(['User-agent: *', 'Disallow: /']);
  });

  it.each(['/favicon.ico', '/favicon.svg', '/apple-touch-icon.png', '/icon-512.png', '/robots.txt'])(
    '%s is public, cached for a day, revalidated by its tag, inert, and HEAD answers as GET',
    async (url) => {
      const res = await t.request('GET', url, { token: null });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=86400');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      const tag = String(res.headers.etag);
      expect(tag).toMatch(/^"[\w-]+"$/);

      const again = await fetchIcon(url, 'GET', { 'if-none-match': tag });
      expect(again.status).toBe(304);
      expect(again.bytes.length).toBe(0);
      expect(again.headers.etag).toBe(tag);
      expect((await fetchIcon(url, 'GET', { 'if-none-match': '"another"' })).status).toBe(200);

      const head = await fetchIcon(url, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.bytes.length).toBe(0);
      expect(head.headers['content-type']).toBe(res.headers['content-type']);
      expect(head.headers['content-length']).toBe(res.headers['content-length']);
    },
  );

  it('answers many first requests at once, each kind with the same bytes', async () => {
    const fresh = await buildTestApp();
    try {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => fresh.app.inject({ method: 'GET', url: i % 2 ? '/favicon.ico' : '/apple-touch-icon.png' })),
      );
      expect(answers.map((res) => res.statusCode)).toEqual(Array(12).fill(200));
      answers.forEach((res, i) => {
        expect(res.rawPayload.equals(answers[i % 2]!.rawPayload)).toBe(true);
      });
      expect(answers[0]!.rawPayload.equals(answers[1]!.rawPayload)).toBe(false);
    } finally {
      await fresh.close();
    }
  });

  it('are files, not API: not in the OpenAPI document, and no other method is answered', async () => {
    const document = (await t.get('/openapi.json')).body as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((path) => /icon|robots/.test(path))).toEqual([]);
    const res = await t.request('POST', '/favicon.ico', { token: null });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });

  it('are named by the web app and the API reference, which serves the same drawing', async () => {
    const html = readFileSync(join(webAppDir(), 'index.html'), 'utf8');
    expect(html).toContain('<link rel="icon" href="/favicon.ico" sizes="48x48"');
    expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml"');
    expect(html).toContain('<link rel="apple-touch-icon" href="/apple-touch-icon.png"');
    expect(html).toContain('<link rel="manifest" href="/app/manifest.webmanifest"');

    const reference = (await t.request('GET', '/docs', { token: null })).text;
    expect(reference).toContain('<title>Chronicle API reference</title>');
    const href = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/.exec(reference)?.[1];
    expect(href).toBe('/docs/static/theme/favicon.svg');
    const served = await fetchIcon('/docs/static/theme/favicon.svg');
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(served.bytes.equals(ICON_SVG)).toBe(true);
  });

  it("the web app's manifest installs it as Chronicle, with icons that are served at the sizes it gives", async () => {
    const res = await t.request('GET', '/app/manifest.webmanifest', { token: null });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = JSON.parse(res.text) as {
      name: string;
      start_url: string;
      scope: string;
      display: string;
      icons: { src: string; sizes: string; type: string; purpose: string }[];
    };
    expect([manifest.name, manifest.start_url, manifest.scope, manifest.display]).toEqual(['Chronicle', '/app/', '/app/', 'standalone']);
    expect(manifest.icons.map((icon) => icon.purpose).sort()).toEqual(['any', 'any', 'any', 'maskable']);
    for (const icon of manifest.icons) {
      const served = await fetchIcon(icon.src);
      expect(served.status).toBe(200);
      expect(served.headers['content-type']).toBe(icon.type);
      const meta = await sharp(served.bytes).metadata();
      if (icon.sizes !== 'any') expect(`${meta.width}x${meta.height}`).toBe(icon.sizes);
    }
  });
});
