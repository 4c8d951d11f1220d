/**
 * The API reference at /docs (its CSP; test/slow/docs-browser.test.ts renders it in Chromium and
 * calls the API from it), the OpenAPI document's servers and license, and CORS_ORIGINS.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loggerOptions } from '../../src/http/logging.js';
import { decodedBytes } from '../helpers/encodings.js';
import { ADMIN_TOKEN, buildTestApp, testConfig, type TestContext } from '../helpers/test-app.js';

/** Swagger UI's files as its package holds them: what /docs/static/ serves. */
const STATIC_DIR = join(dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui')), 'static');
const staticFile = (name: string) => readFileSync(join(STATIC_DIR, name));

/** The reference's scripts and styles worth compressing, largest first. */
const REFERENCE_FILES = ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'swagger-ui.css'];

describe('the API reference and CORS', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await buildTestApp({ config: { corsOrigins: ['https://app.example.com'] } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves /docs under a CSP that allows this origin only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs' });
    const page = res.statusCode === 302 ? await t.app.inject({ method: 'GET', url: res.headers.location as string }) : res;
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toMatch(/https?:\/\//);
    expect(page.body).not.toMatch(/<script>[^<]/);
    expect(page.body).not.toMatch(/src="https?:/);
  });

  it('serves the document it shows, without the reference in it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = JSON.parse(res.body) as { servers: { url: string }[]; info: { license: { name: string } }; paths: Record<string, unknown> };
    expect(doc.servers[0]?.url).toBe('http://chronicle.test');
    expect(doc.info.license.name).toBeTruthy();
    expect(Object.keys(doc.paths).some((path) => path.startsWith('/docs'))).toBe(false);
    expect(doc.paths['/api/v1/reports']).toBeDefined();
  });

  const referenceFile = (name: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    t.app.inject({ method, url: `/docs/static/${name}`, headers });

  describe.each(REFERENCE_FILES)('the reference file %s', (name) => {
    it.each([
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['identity', undefined],
      [undefined, undefined],
    ] as const)('is sent for Accept-Encoding %s as %s, decoding to the file, with the same headers', async (accept, encoding) => {
      const plain = await referenceFile(name);
      const res = await referenceFile(name, accept === undefined ? {} : { 'accept-encoding': accept });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(decodedBytes({ headers: res.headers, bytes: res.rawPayload }).equals(staticFile(name))).toBe(true);
      if (encoding) expect(res.rawPayload.length).toBeLessThan(staticFile(name).length / 2);
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      expect(String(res.headers.vary)).toContain('Accept-Encoding');
      for (const header of [
        'content-type',
        'etag',
        'cache-control',
        'content-security-policy',
        'x-content-type-options',
        'referrer-policy',
      ]) {
        expect(res.headers[header], header).toBe(plain.headers[header]);
      }
      // Ranges are of the file as it is: a compressed answer offers none.
      expect(res.headers['accept-ranges']).toBe(encoding ? undefined : 'bytes');
    });

    it('answers 304 to its entity tag in every encoding, and HEAD as GET', async () => {
      const tag = String((await referenceFile(name)).headers.etag);
      expect(tag).toMatch(/^W\//);
      for (const accept of ['br', 'gzip', 'identity']) {
        const res = await referenceFile(name, { 'accept-encoding': accept, 'if-none-match': tag });
        expect(res.statusCode).toBe(304);
        expect(res.rawPayload.length).toBe(0);
        const get = await referenceFile(name, { 'accept-encoding': accept });
        const head = await referenceFile(name, { 'accept-encoding': accept }, 'HEAD');
        expect(head.statusCode).toBe(200);
        expect(head.rawPayload.length).toBe(0);
        for (const header of ['content-type', 'content-encoding', 'content-length', 'etag', 'vary']) {
          expect(head.headers[header], `${accept} ${header}`).toBe(get.headers[header]);
        }
      }
    });
  });

  it('sends the same copy to many first requests at once, and a picture or a tiny file as it is', async () => {
    const fresh = await buildTestApp();
    try {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          fresh.app.inject({
            method: 'GET',
            url: '/docs/static/swagger-ui-bundle.js',
            headers: { 'accept-encoding': i % 2 ? 'br' : 'gzip' },
          }),
        ),
      );
      for (const res of answers) {
        expect(res.statusCode).toBe(200);
        expect(decodedBytes({ headers: res.headers, bytes: res.rawPayload }).equals(staticFile('swagger-ui-bundle.js'))).toBe(true);
      }
      // The first of each encoding compresses; at least the later ones of that encoding get the copy.
      expect(answers.filter((res) => res.headers['content-encoding'] !== undefined).length).toBeGreaterThan(0);
      const later = await fresh.app.inject({
        method: 'GET',
        url: '/docs/static/swagger-ui-bundle.js',
        headers: { 'accept-encoding': 'br' },
      });
      expect(later.headers['content-encoding']).toBe('br');
      const icon = await fresh.app.inject({ method: 'GET', url: '/docs/static/favicon-32x32.png', headers: { 'accept-encoding': 'br' } });
      expect(icon.statusCode).toBe(200);
      expect(icon.headers['content-encoding']).toBeUndefined();
      expect(icon.rawPayload.equals(staticFile('favicon-32x32.png'))).toBe(true);
      const tiny = await fresh.app.inject({ method: 'GET', url: '/docs/static/index.css', headers: { 'accept-encoding': 'br' } });
      expect(staticFile('index.css').length).toBeLessThan(1024);
      expect(tiny.headers['content-encoding']).toBeUndefined();
      expect(String(tiny.headers.vary)).toContain('Accept-Encoding');
      expect(tiny.rawPayload.equals(staticFile('index.css'))).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it('answers a preflight from an allowed origin, and exposes the paging headers', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/reports',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(String(res.headers['access-control-allow-methods'])).toContain('POST');
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();

    const get = await t.app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { origin: 'https://app.example.com', authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(get.statusCode).toBe(200);
    expect(get.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(String(get.headers['access-control-expose-headers']).toLowerCase()).toContain('x-total-count');
  });

  it('gives another origin no CORS header', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/reports',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const get = await t.app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { origin: 'https://evil.example', authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(get.statusCode).toBe(200);
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sends no CORS header at all without CORS_ORIGINS', async () => {
    const plain = await buildTestApp();
    try {
      const res = await plain.app.inject({
        method: 'GET',
        url: '/api/v1/me',
        headers: { origin: 'https://app.example.com', authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});

describe('path probes of the API reference', () => {
  let log = '';
  let app: Awaited<ReturnType<typeof buildApp>>;
  let t: TestContext;
  beforeAll(async () => {
    t = await buildTestApp();
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        log += String(chunk);
        callback();
      },
    });
    app = await buildApp({
      config: testConfig({ logLevel: 'info' }),
      database: t.database,
      loggerInstance: pino(loggerOptions('info') as object, stream),
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  /** A raw request line, exactly as sent (fetch and inject would normalise the dots). */
  function rawGet(path: string): Promise<string> {
    const { port } = app.server.address() as AddressInfo;
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('error', reject);
      socket.on('close', () => {
        resolve(received);
      });
    });
  }

  const PROBES = [
    '/docs/static/../..',
    '/docs/static/../../package.json',
    '/docs/static/%2e%2e/%2e%2e/package.json',
    '/docs/static/.%2e/.%2e/',
    '/docs/static/..%2f..%2fpackage.json',
    '/docs/static/%5c..%5c..%5cpackage.json',
    '/docs/static/..\\..\\package.json',
    '/docs/static/%00',
    '/docs/static/index.html%00.js',
    `/docs/static/${'a'.repeat(5_000)}`,
    `/docs/static/${'%2e%2e/'.repeat(300)}`,
  ];

  const named = PROBES.map((path) => [path.length > 60 ? `${path.slice(0, 60)}... (${path.length} characters)` : path, path]);
  it.each(named)('answers %s with a 4xx problem, never a 500', async (_name, path) => {
    const received = await rawGet(path);
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1]);
    expect(status === 404 || status === 400).toBe(true);
    expect(received).toContain('application/problem+json');
    expect(received).not.toMatch(/\n\s+at /);
  });

  it('logs the probes at info at most, without a stack', () => {
    const lines = log
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string; statusCode?: number });
    expect(lines.filter((line) => line.msg === 'request').length).toBeGreaterThanOrEqual(PROBES.length);
    expect(lines.filter((line) => line.level > 30)).toEqual([]);
    expect(log).not.toContain('"stack"');
  });

  it('still serves the reference and its files', async () => {
    expect((await app.inject({ method: 'GET', url: '/docs/static/index.html' })).statusCode).toBeLessThan(400);
    const css = await app.inject({ method: 'GET', url: '/docs/static/swagger-ui.css' });
    expect(css.statusCode).toBe(200);
  });
});
