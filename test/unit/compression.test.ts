/**
 * The API's compression hook (src/http/compression.ts) on a bare Fastify app: answers past the
 * slots go out as they are at once, a failed compression sends the answer as it is, and only what
 * the hook was made for (200s under /api/ of JSON, Markdown or CSV) is touched.
 */
import Fastify from 'fastify';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptedEncoding, compressBody, type ContentEncoding } from '../../src/lib/compression.js';
import { registerCompression } from '../../src/http/compression.js';

const BIG = JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: i, description: `Entry ${i} of a long list` })));

function appWith(compress: (body: string | Uint8Array, encoding: ContentEncoding) => Promise<Buffer>, slots = 1) {
  const app = Fastify();
  registerCompression(app, { minBytes: 1024, slots, compress });
  app.get('/api/list', async (_request, reply) => reply.type('application/json; charset=utf-8').send(BIG));
  app.get('/api/page', async (_request, reply) => reply.type('text/html; charset=utf-8').send(BIG));
  app.get('/other', async (_request, reply) => reply.type('application/json; charset=utf-8').send(BIG));
  app.get('/api/created', async (_request, reply) => reply.code(201).type('application/json; charset=utf-8').send(BIG));
  return app;
}

const get = (app: ReturnType<typeof appWith>, url: string) => app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });

describe('acceptedEncoding', () => {
  it('prefers Brotli, honours q=0, and answers null for none', () => {
    expect(acceptedEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(acceptedEncoding('br;q=0, gzip')).toBe('gzip');
    expect(acceptedEncoding('*')).toBe('br');
    expect(acceptedEncoding('identity')).toBeNull();
    expect(acceptedEncoding('')).toBeNull();
    expect(acceptedEncoding(undefined)).toBeNull();
    expect(acceptedEncoding(`${'x;q=0.5, '.repeat(2000)}gzip`)).toBe('gzip');
  });
});

describe('registerCompression', () => {
  it('answers past the slots as they are, at once, while a compression runs', async () => {
    let release: () => void = () => undefined;
    let calls = 0;
    const app = appWith((body, encoding) => {
      calls += 1;
      return new Promise<Buffer>((resolve) => {
        release = () => void compressBody(body, encoding).then(resolve);
      });
    });
    // inject() starts a request when it is awaited or then()ed.
    const held = Promise.resolve(get(app, '/api/list'));
    while (calls === 0) await new Promise((resolve) => setImmediate(resolve));
    const passed = await get(app, '/api/list');
    expect(passed.headers['content-encoding']).toBeUndefined();
    expect(passed.body).toBe(BIG);
    expect(passed.headers.vary).toBe('Accept-Encoding');
    release();
    const compressed = await held;
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(compressed.rawPayload).toString()).toBe(BIG);
    // The slot is free again: the next answer is compressed.
    const next = Promise.resolve(get(app, '/api/list'));
    while (calls === 1) await new Promise((resolve) => setImmediate(resolve));
    release();
    expect((await next).headers['content-encoding']).toBe('gzip');
    expect(calls).toBe(2);
    await app.close();
  });

  it('sends the answer as it is when compressing fails, by rejecting or by throwing, and frees the slot', async () => {
    for (const compress of [
      () => Promise.reject(new Error('no memory')),
      () => {
        throw new Error('no memory');
      },
    ]) {
      const app = appWith(compress);
      for (let i = 0; i < 2; i++) {
        const res = await get(app, '/api/list');
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBeUndefined();
        expect(res.body).toBe(BIG);
      }
      await app.close();
    }
  });

  it('leaves other types, other paths and other statuses alone', async () => {
    let calls = 0;
    const app = appWith((body, encoding) => {
      calls += 1;
      return compressBody(body, encoding);
    }, 4);
    for (const url of ['/api/page', '/other', '/api/created']) {
      const res = await get(app, url);
      expect(res.headers['content-encoding'], url).toBeUndefined();
      expect(res.headers.vary, url).toBeUndefined();
    }
    expect(calls).toBe(0);
    expect((await get(app, '/api/list')).headers['content-encoding']).toBe('gzip');
    await app.close();
  });
});
