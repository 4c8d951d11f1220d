/**
 * The real process: `src/server.ts` configured by environment variables, its log lines, the
 * first-start token banner, and a graceful exit on SIGTERM.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess } from '../helpers/server-process.js';
import { dataDirFromImage } from '../helpers/pglite-image.js';

// Initialising a data directory is data-dir.test.ts's: these start on one made from an image.
const dataDir = dataDirFromImage('migrated', 'chronicle-server-');
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** The first two run on an embedded DATA_DIR whatever the run's engine: once, on the PGlite pass. */
const embeddedPass = !process.env.TEST_DATABASE_URL;

describe('server process', () => {
  it.runIf(embeddedPass)('starts from the environment, logs one redacted line per request, and exits cleanly on SIGTERM', async () => {
    const port = await freePort();
    const server = startServerProcess({
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      // debug adds an "incoming request" line, which tells when the slow request below is in.
      LOG_LEVEL: 'debug',
      RENDER_TIME_LIMIT_MS: '300',
      DATABASE_URL: '',
      BOOTSTRAP_ADMIN_TOKEN: '',
    });
    await server.waitFor('Server listening');
    const out = () => server.output();
    const token = /^\s+(chr_[A-Za-z0-9_-]+)$/m.exec(out())?.[1];
    expect(token).toBeDefined();

    const base = `http://127.0.0.1:${port}`;
    const me = await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe('admin@localhost');
    await fetch(`${base}/share/SECRETshareTOKEN1234567`);

    // sharp (libvips, about 30 MiB) loads with the first image the process draws, not at start.
    const maps = () => readFileSync(`/proc/${server.child.pid}/maps`, 'utf8');
    if (existsSync('/proc/self/maps')) expect(maps()).not.toMatch(/libvips/);
    const icon = await fetch(`${base}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(Buffer.from(await icon.arrayBuffer()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
    if (existsSync('/proc/self/maps')) expect(maps()).toMatch(/libvips/);

    // A request still running when SIGTERM arrives is finished before the process exits.
    const json = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const ws = (await (
      await fetch(`${base}/api/v1/workspaces`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'W' }) })
    ).json()) as { id: string };
    const slowTemplate = (await (
      await fetch(`${base}/api/v1/templates`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'Slow', body: '{% for a in (1..100000) %}{% for b in (1..100000) %}x{% endfor %}{% endfor %}' }),
      })
    ).json()) as { id: string };
    const inFlight = fetch(`${base}/api/v1/reports/preview`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Slow', templateId: slowTemplate.id, filters: { workspaceIds: [ws.id], dateRange: 'today' } }),
    });
    await server.waitFor(/"msg":"incoming request"[^\n]*reports\/preview|reports\/preview[^\n]*"msg":"incoming request"/);
    server.child.kill('SIGTERM');
    expect((await inFlight).status).toBe(400);
    const code = await server.exited;
    if (code !== 0) console.log(out().slice(-3000));
    expect(code).toBe(0);

    const logLines = out()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    const requestLines = logLines.filter((line) => JSON.parse(line).msg === 'request');
    expect(requestLines).toHaveLength(6);
    for (const line of requestLines) expect(JSON.parse(line).reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(out()).toContain('"url":"/share/:token"');
    expect(out()).not.toContain('SECRETshareTOKEN1234567');
    // The token appears once, in the first-start banner, and never in a log line.
    expect(out().split(token!).length - 1).toBe(1);
    expect(logLines.join('\n')).not.toContain(token!);
  });

  it.runIf(embeddedPass)("starts and renders with V8's options on Node's command line, which worker threads refuse", async () => {
    // `node --max-old-space-size=... dist/src/server.js` is how operators size a process's heap. A
    // worker given such an option does not start, and both the embedded engine and the renders
    // run in workers.
    const port = await freePort();
    const ownDir = dataDirFromImage('migrated', 'chronicle-options-');
    const server = startServerProcess(
      {
        DATA_DIR: ownDir,
        DATABASE_URL: '',
        PORT: String(port),
        HOST: '127.0.0.1',
        BOOTSTRAP_ADMIN_TOKEN: '',
      },
      'src/server.ts',
      [],
      ['--max-old-space-size=1024', '--max-semi-space-size=16'],
    );
    try {
      await server.waitFor('Server listening');
      const token = /^\s+(chr_[A-Za-z0-9_-]+)$/m.exec(server.output())?.[1];
      const base = `http://127.0.0.1:${port}`;
      const json = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const ws = (await (
        await fetch(`${base}/api/v1/workspaces`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'W' }) })
      ).json()) as { id: string };
      const listed = await fetch(`${base}/api/v1/templates`, { headers: { authorization: json.authorization } });
      const templates = (await listed.json()) as { id: string; name: string }[];
      expect(listed.status, JSON.stringify(templates)).toBe(200);
      const timesheet = templates.find((template) => template.name === 'Timesheet')!;
      const preview = await fetch(`${base}/api/v1/reports/preview`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'Week', templateId: timesheet.id, filters: { workspaceIds: [ws.id], dateRange: 'this_week' } }),
      });
      expect(preview.status).toBe(200);
      expect(((await preview.json()) as { renderedMarkdown: string }).renderedMarkdown).toContain('No time was tracked in this period.');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      rmSync(ownDir, { recursive: true, force: true });
    }
  });

  it.runIf(embeddedPass)('refuses bad configuration with one line naming the variable', async () => {
    const server = startServerProcess({ PORT: '99999', DATA_DIR: dataDir });
    expect(await server.exited).toBe(1);
    const err = server
      .output()
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('npm warn'));
    expect(err).toHaveLength(1);
    expect(err[0]).toContain('PORT');
  });

  it.runIf(process.env.TEST_DATABASE_URL)('waits for a database that is not accepting connections yet, then starts', async () => {
    const pg = (await import('pg')).default;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const name = `chronicle_test_wait_${process.pid}_${Date.now().toString(36)}`;
    await admin.query(`create database "${name}"`);
    await admin.query(`alter database "${name}" allow_connections false`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    const port = await freePort();
    const server = startServerProcess({
      DATABASE_URL: url.toString(),
      SHARE_KEY: Buffer.alloc(32, 9).toString('base64'),
      PORT: String(port),
      LOG_LEVEL: 'info',
      BOOTSTRAP_ADMIN_TOKEN: 'w'.repeat(40),
    });
    try {
      await server.waitFor('Cannot reach the database (the database is not accepting connections); retrying');
      expect(server.output()).not.toMatch(/\n\s+at /);
      await admin.query(`alter database "${name}" allow_connections true`);
      await server.waitFor('Server listening');
      const me = await fetch(`http://127.0.0.1:${port}/api/v1/me`, { headers: { authorization: `Bearer ${'w'.repeat(40)}` } });
      expect(me.status).toBe(200);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  });
});
