import { connect } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, type ExpectStatic } from 'vitest';
import { buildApp } from '../../src/app.js';
import { ADMIN_TOKEN, buildTestApp, expectProblem, newUser, testConfig, type TestContext } from '../helpers/test-app.js';
import { rowsOf } from '../../src/db/rows.js';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('operational endpoints', () => {
  it('GET /healthz is 200 without a token', async () => {
    const res = await t.get('/healthz', null);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('GET /readyz is 200 while the database answers', async () => {
    const res = await t.get('/readyz', null);
    expect(res.status).toBe(200);
  });

  it('GET /openapi.json describes every API route as OpenAPI 3.1', async () => {
    const res = await t.get('/openapi.json', null);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(res.body.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    for (const route of [
      'POST /api/v1/users',
      'GET /api/v1/me',
      'DELETE /api/v1/me/tokens/{id}',
      'GET /healthz',
      'GET /readyz',
      'GET /share/{token}',
      'PUT /api/v1/report-contents/{id}/reactions',
    ]) {
      expect(documented).toContain(route);
    }
    // Every operation states the scope it needs (or none, for public ones).
    expect(res.body.paths['/api/v1/me'].get.security).toEqual([{ bearer: ['read'] }]);
    expect(res.body.paths['/api/v1/me'].patch.security).toEqual([{ bearer: ['write'] }]);
    expect(res.body.paths['/share/{token}'].get.security).toEqual([]);
    // A share may be minted with no body at all.
    expect(res.body.paths['/api/v1/reports/{id}/shares'].post.requestBody.required).toBe(false);
    expect(res.body.paths['/api/v1/reports/{id}/shares'].post).not.toHaveProperty('x-optional-body');
    expect(res.body.paths['/api/v1/reports'].post.requestBody.required).toBe(true);
    for (const ops of Object.values(res.body.paths as Record<string, Record<string, { security?: unknown }>>)) {
      for (const op of Object.values(ops)) expect(op.security).toBeDefined();
    }
  });
});

describe('problem+json errors', () => {
  it('answers an unknown route with a 404 problem', async () => {
    const problem = expectProblem(await t.get('/api/v1/nope'), 404);
    expect(problem).toMatchObject({ status: 404, title: 'Not Found' });
    expect(problem.type).toMatch(/^urn:chronicle:problem:/);
  });

  describe('an address nothing serves', () => {
    // What Chromium sends when it opens a page.
    const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
    const noSuchPage = (res: { status: number; headers: Record<string, unknown>; text: string }) => {
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(String(res.headers['content-security-policy'])).toMatch(/^default-src 'none'/);
      expect(res.headers.vary).toBe('Accept');
    };

    it('is a page that leads to the app for a browser opening it, the same whatever the address', async () => {
      const pages = await Promise.all(
        ['/login', '/reports/0193-x', '/app2', '/%3Cscript%3Ealert(1)%3C/script%3E', '/favicon.png?x=<b>'].map((url) =>
          t.request('GET', url, { token: null, headers: { accept: BROWSER } }),
        ),
      );
      for (const res of pages) {
        noSuchPage(res);
        expect(res.text).toBe(pages[0]!.text);
      }
      expect(pages[0]!.text).toContain('<h1>There is no page here</h1>');
      expect(pages[0]!.text).toContain('<a href="/app/">Open Chronicle</a>');
      expect(pages[0]!.text).not.toMatch(/script|login|<b>/);

      const head = await t.app.inject({ method: 'HEAD', url: '/login', headers: { accept: BROWSER } });
      expect(head.statusCode).toBe(404);
      expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(head.body).toBe('');
      expect(head.headers['content-length']).toBe(String(Buffer.byteLength(pages[0]!.text)));
    });

    it.each([
      ['no Accept', undefined],
      ['*/*', '*/*'],
      ['JSON', 'application/json'],
      ['HTML refused', 'text/html;q=0, application/json'],
      ['HTML refused, spaced', 'application/json, text/html ; q = 0'],
    ])('is a problem for a client that does not ask for a page (%s)', async (_label, accept) => {
      const res = await t.request('GET', '/login', { token: null, headers: accept === undefined ? {} : { accept } });
      expect(expectProblem(res, 404).detail).toBe('No route GET /login.');
      expect(res.headers.vary).toBe('Accept');
    });

    it('is always a problem under /api and for anything but GET and HEAD', async () => {
      for (const url of ['/api/v1/nope', '/api', '/api/v2/reports']) {
        const res = await t.request('GET', url, { token: null, headers: { accept: BROWSER } });
        expectProblem(res, 404);
        expect(res.headers.vary).toBeUndefined();
      }
      expectProblem(await t.request('POST', '/login', { token: null, headers: { accept: BROWSER }, body: {} }), 404);
      expectProblem(await t.request('DELETE', '/login', { token: null, headers: { accept: BROWSER } }), 404);
    });
  });

  it('answers malformed JSON with 400', async () => {
    const res = await t.request('POST', '/api/v1/workspaces', { raw: '{"name": ', headers: { 'content-type': 'application/json' } });
    const problem = expectProblem(res, 400);
    expect(problem.detail).toMatch(/JSON/);
    expect(res.text).not.toMatch(/at .*\.(js|ts):\d+/);
  });

  it('answers an empty JSON body with 400', async () => {
    expectProblem(await t.request('POST', '/api/v1/workspaces', { raw: '', headers: { 'content-type': 'application/json' } }), 400);
  });

  it('answers a non-JSON content type with 415', async () => {
    expectProblem(await t.request('POST', '/api/v1/workspaces', { raw: 'name=x', headers: { 'content-type': 'text/plain' } }), 415);
    expectProblem(
      await t.request('POST', '/api/v1/workspaces', { raw: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      415,
    );
  });

  it('answers a body over 1 MiB with 413', async () => {
    const raw = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) });
    expectProblem(await t.request('POST', '/api/v1/workspaces', { raw, headers: { 'content-type': 'application/json' } }), 413);
  });

  it('lists every validation failure with a JSON pointer', async () => {
    const problem = expectProblem(await t.post('/api/v1/users', { name: '', email: 'bad', extra: true }), 400);
    expect(problem.errors?.map((e) => e.path).sort()).toEqual(['/email', '/extra', '/name']);
  });

  it('does not coerce wrong JSON types', async () => {
    expectProblem(await t.post('/api/v1/users', { name: 123, email: 'n@example.com' }), 400);
    expectProblem(await t.post('/api/v1/users', { name: 'N', email: 'n@example.com', instanceAdmin: 'true' }), 400);
  });

  it('validates query strings with a /query path', async () => {
    const problem = expectProblem(await t.get('/api/v1/reports', undefined, { limit: 0 }), 400);
    expect(problem.errors?.[0]?.path).toBe('/query/limit');
  });

  it('sends a request id on every response', async () => {
    const res = await t.get('/healthz', null);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('checks the token before the body', async () => {
    const res = await t.request('POST', '/api/v1/workspaces', { token: null, raw: '{', headers: { 'content-type': 'application/json' } });
    expectProblem(res, 401);
  });

  it('never leaks internals in a 404 for a hidden resource', async () => {
    const user = await newUser(t);
    const problem = expectProblem(await t.get('/api/v1/users/some-id', user.token), 404);
    expect(problem.detail).not.toMatch(/select|from|where/i);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('database down (PostgreSQL)', () => {
  it('answers 503 problem+json while the database refuses connections, and recovers by itself', async () => {
    const pg = (await import('pg')).default;
    const { sql } = await import('drizzle-orm');
    const result = await t.database.db.execute(sql`select current_database() as name`);
    const name = rowsOf<{ name: string }>(result)[0]!.name;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(`alter database "${name}" allow_connections false`);
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
      // pg_terminate_backend only signals: wait until every other backend of this database is gone.
      await waitForBackendsGone(admin, name);
      const down = await t.get('/api/v1/me');
      const problem = expectProblem(down, 503);
      expect(problem.detail).not.toMatch(/select|accepting|pg_/i);
      expect(down.headers['retry-after']).toBe('5');
      expect((await t.get('/readyz', null)).status).toBe(503);
      expect((await t.get('/healthz', null)).status).toBe(200);
    } finally {
      await admin.query(`alter database "${name}" allow_connections true`);
      await admin.end();
    }
    // The pool reconnects by itself: poll readiness, then requests are served as before.
    while ((await t.get('/readyz', null)).status !== 200) await delay(50);
    expect((await t.get('/api/v1/me')).status).toBe(200);
  });

  it('survives losing its connection in the middle of a transaction, and serves on', async () => {
    const pg = (await import('pg')).default;
    const { sql } = await import('drizzle-orm');
    const name = rowsOf<{ name: string }>(await t.database.db.execute(sql`select current_database() as name`))[0]!.name;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const outcome = t.database.db.transaction(async (tx) => {
        const pid = rowsOf<{ pid: number }>(await tx.execute(sql`select pg_backend_pid() as pid`))[0]!.pid;
        // The client is checked out and idle in the transaction when its server goes away.
        await admin.query('select pg_terminate_backend($1)', [pid]);
        await waitForBackendsGone(admin, name, pid);
        await tx.execute(sql`select 1`);
      });
      await expect(outcome).rejects.toThrow();
    } finally {
      await admin.end();
    }
    expect((await t.get('/api/v1/me')).status).toBe(200);
  });
});

/** Polls until no backend of `database` (other than `admin`'s own) is left, or only `pid` is gone. */
async function waitForBackendsGone(
  admin: { query: (text: string, values: unknown[]) => Promise<{ rowCount: number | null }> },
  database: string,
  pid?: number,
) {
  for (;;) {
    const left = await admin.query(
      'select 1 from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and ($2::int is null or pid = $2)',
      [database, pid ?? null],
    );
    if (left.rowCount === 0) return;
    await delay(20);
  }
}

describe('URLs the router cannot read', () => {
  it('answers the API with a 400 problem', async () => {
    const res = await t.get('/api/v1/reports/%ZZ');
    expectProblem(res, 400);
    expectProblem(await t.get(`/api/v1/reports/${'x'.repeat(101)}`), 400);
  });

  it('answers the public viewer with its uniform 404 page and headers', async () => {
    const { NOT_FOUND_PAGE, VIEWER_HEADERS } = await import('../../src/render/share-page.js');
    for (const url of ['/share/%ZZ', '/share/%E0%A4%A', `/share/${'A'.repeat(150)}`]) {
      for (const method of ['GET', 'POST']) {
        const res = await t.request(method, url, { token: null });
        expect(res.status).toBe(404);
        expect(res.text).toBe(NOT_FOUND_PAGE);
        for (const [name, value] of Object.entries(VIEWER_HEADERS)) expect(res.headers[name.toLowerCase()]).toBe(value);
      }
    }
  });
});

// Concurrent: each test waits about a second for the server's timeout on a connection of its own.
describe.concurrent('connections that stall (REQUEST_TIMEOUT_MS at its minimum, 1 s)', () => {
  /** Sends `payload` on a raw socket and resolves with every byte received once the server closes it. */
  function sendAndWaitForClose(port: number, payload: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(payload));
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('error', reject);
      socket.on('close', () => {
        resolve(received);
      });
    });
  }

  let app: Awaited<ReturnType<typeof buildApp>>;
  let port = 0;
  beforeAll(async () => {
    app = await buildApp({ config: testConfig({ requestTimeoutMs: 1_000 }), database: t.database, logger: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (typeof address !== 'object' || !address) throw new Error('no address');
    port = address.port;
  });
  afterAll(() => app.close());

  const json = `Authorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\n`;
  const timedOut = (expect: ExpectStatic, received: string) => {
    const at = received.lastIndexOf('HTTP/1.1 408 Request Timeout\r\n');
    expect(at).toBeGreaterThanOrEqual(0);
    const answer = received.slice(at);
    expect(answer).toContain('Content-Type: application/problem+json');
    expect(answer).toContain('Connection: close');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
      type: 'urn:chronicle:problem:request_timeout',
      status: 408,
    });
  };

  // Each waits for the server to close the socket; a server without the timeout never would, and
  // the test's own timeout (a guard, not a measure) fails it.
  it('answers a body that stops half-way with a 408 problem and closes the connection', { timeout: 30_000 }, async ({ expect }) => {
    const received = await sendAndWaitForClose(
      port,
      `POST /api/v1/workspaces HTTP/1.1\r\nHost: x\r\n${json}Content-Length: 100\r\n\r\n{"na`,
    );
    expect(received.startsWith('HTTP/1.1 408 ')).toBe(true);
    timedOut(expect, received);
  });

  it('does the same for a chunked body whose last chunk never comes', { timeout: 30_000 }, async ({ expect }) => {
    const received = await sendAndWaitForClose(
      port,
      `POST /api/v1/workspaces HTTP/1.1\r\nHost: x\r\n${json}Transfer-Encoding: chunked\r\n\r\n4\r\n{"na\r\n`,
    );
    timedOut(expect, received);
  });

  it('closes a connection whose request was answered early (401) but whose body never ends', { timeout: 30_000 }, async ({ expect }) => {
    const received = await sendAndWaitForClose(
      port,
      'POST /api/v1/workspaces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na',
    );
    expect(received.startsWith('HTTP/1.1 401 ')).toBe(true);
  });

  it('answers headers that never finish with a 408 problem and closes the connection', { timeout: 30_000 }, async ({ expect }) => {
    const received = await sendAndWaitForClose(port, 'GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Slow: a');
    expect(received.startsWith('HTTP/1.1 408 ')).toBe(true);
    timedOut(expect, received);
  });

  it('times out the second request of a kept-alive connection too', { timeout: 30_000 }, async ({ expect }) => {
    const received = await sendAndWaitForClose(
      port,
      `GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nPOST /api/v1/workspaces HTTP/1.1\r\nHost: x\r\n${json}Content-Length: 100\r\n\r\n{"na`,
    );
    expect(received.startsWith('HTTP/1.1 200 ')).toBe(true);
    timedOut(expect, received);
  });

  it('answers bytes that are not HTTP with a 400 problem', { timeout: 30_000 }, async ({ expect }) => {
    const received = await sendAndWaitForClose(port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(received).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(received).toContain('application/problem+json');
  });
});

describe('saturation (OVERLOAD_EVENT_LOOP_DELAY_MS)', () => {
  // A pressure source the test sets, instead of blocking the event loop and hoping for timing.
  let delayMs = 0;
  const pressure = { eventLoopDelayMs: () => delayMs, close: () => undefined };
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    app = await buildApp({
      config: testConfig({ overloadEventLoopDelayMs: 500 }),
      database: t.database,
      logger: false,
      pressure,
    });
  });
  afterAll(() => app.close());
  const get = (url: string) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });

  it('serves everything while the loop keeps up', async () => {
    delayMs = 500;
    expect((await get('/api/v1/me')).statusCode).toBe(200);
    expect((await get('/readyz')).statusCode).toBe(200);
  });

  it('refuses new requests with 503 and Retry-After past the threshold; /readyz says so; /healthz and /metrics answer', async () => {
    delayMs = 501;
    const refused = await get('/api/v1/me');
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('2');
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(JSON.parse(refused.body)).toMatchObject({ type: 'urn:chronicle:problem:unavailable', status: 503 });
    const share = await get('/share/AbCdEfGhIjKlMnOpQrStUv');
    expect(share.statusCode).toBe(503);
    const post = await app.inject({
      method: 'POST',
      url: '/api/v1/workspaces',
      payload: { name: 'x' },
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(post.statusCode).toBe(503);
    expect(post.headers.connection).toBe('close');

    const ready = await get('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(JSON.parse(ready.body)).toEqual({ status: 'overloaded' });
    expect(ready.headers['retry-after']).toBe('2');
    expect((await get('/healthz')).statusCode).toBe(200);
    const metrics = await get('/metrics');
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toMatch(/^chronicle_event_loop_delay_seconds 0\.501$/m);
    expect(metrics.body).toMatch(/^chronicle_overload_refusals_total 3$/m);

    delayMs = 0;
    expect((await get('/api/v1/me')).statusCode).toBe(200);
    expect((await get('/readyz')).statusCode).toBe(200);
  });

  it('never refuses with the check off (0)', async () => {
    const off = await buildApp({
      config: testConfig({ overloadEventLoopDelayMs: 0 }),
      database: t.database,
      logger: false,
      pressure,
    });
    try {
      delayMs = 60_000;
      expect((await off.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      expect((await off.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).statusCode).toBe(
        200,
      );
    } finally {
      delayMs = 0;
      await off.close();
    }
  });
});

describe('the event-loop pressure source', () => {
  it('reports a delay once it has measured, and stops when closed', async () => {
    const { eventLoopPressure } = await import('../../src/lib/event-loop-pressure.js');
    const source = eventLoopPressure();
    try {
      expect(source.eventLoopDelayMs()).toBeGreaterThanOrEqual(0);
    } finally {
      source.close();
    }
  });
});
