/**
 * A database outage on a throwaway PostgreSQL server that this test runs itself (initdb and
 * pg_ctl from the machine's PostgreSQL binaries, its own port and directory; never the shared
 * server): while it is down every API request gets a 503 problem with Retry-After, the public
 * viewer its HTML 503, and /readyz 503, while /healthz stays 200; once it is back, the same app
 * (no restart) serves again with everything it had.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/http/types.js';
import { ADMIN_TOKEN, testConfig } from '../helpers/test-app.js';
import { freePort } from '../helpers/server-process.js';

/** The newest PostgreSQL 15+ binaries on this machine, or why there are none. */
function findBinaries(): { bin: string } | { missing: string } {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => Number(v) >= 15 && existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_ctl')))
        .sort((x, y) => Number(y) - Number(x))
    : [];
  const version = versions[0];
  if (!version) return { missing: `no PostgreSQL 15+ initdb/pg_ctl under ${root}` };
  return { bin: join(root, version, 'bin') };
}

/** PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user. */
function runAs(): { user: string; uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { user: 'postgres', uid, gid };
}

const binaries = findBinaries();
const skipReason = 'missing' in binaries ? `database outage test skipped: ${binaries.missing}` : null;
if (skipReason) console.warn(skipReason);

let dir = '';
let port = 0;
let app: App | null = null;

function pgCtl(...args: string[]): void {
  if ('missing' in binaries) throw new Error(binaries.missing);
  const as = runAs();
  const command = [join(binaries.bin, 'pg_ctl'), ...args];
  execFileSync(as ? 'runuser' : command[0]!, as ? ['-u', as.user, '--', ...command] : command.slice(1), { stdio: 'pipe' });
}

const startServer = () => {
  pgCtl(
    '-D',
    join(dir, 'data'),
    '-l',
    join(dir, 'log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    'start',
  );
};
const stopServer = () => {
  pgCtl('-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop');
};

beforeAll(async () => {
  if ('missing' in binaries) return;
  dir = mkdtempSync(join(tmpdir(), 'chronicle-outage-'));
  const as = runAs();
  if (as) chownSync(dir, as.uid, as.gid);
  const initdb = [join(binaries.bin, 'initdb'), '-D', join(dir, 'data'), '-U', 'postgres', '-A', 'trust', '--no-sync'];
  execFileSync(as ? 'runuser' : initdb[0]!, as ? ['-u', as.user, '--', ...initdb] : initdb.slice(1), { stdio: 'pipe' });
  port = await freePort();
  startServer();
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('create database chronicle');
  await admin.end();
}, 120_000);

afterAll(async () => {
  await app?.close();
  if (!dir) return;
  try {
    stopServer();
  } catch {
    // Already stopped.
  }
  rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, url: string, body?: unknown, token: string | null = ADMIN_TOKEN) {
  const res = await app!.inject({
    method: method as 'GET',
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, headers: res.headers, body: res.body };
}

describe('database outage', () => {
  it.skipIf(skipReason !== null)(
    'answers 503 while the database is down and recovers without a restart',
    { timeout: 180_000 },
    async () => {
      app = await buildApp({ config: testConfig({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/chronicle` }), logger: false });
      const ws = JSON.parse((await call('POST', '/api/v1/workspaces', { name: 'Before' })).body) as { id: string };
      const template = (JSON.parse((await call('GET', '/api/v1/templates')).body) as { id: string }[])[0]!;
      const report = JSON.parse(
        (
          await call('POST', '/api/v1/reports', {
            name: 'Kept',
            templateId: template.id,
            filters: { workspaceIds: [ws.id], dateRange: 'this_month' },
          })
        ).body,
      ) as { id: string };
      const share = JSON.parse((await call('POST', `/api/v1/reports/${report.id}/shares`, {})).body) as { token: string };
      expect((await call('GET', `/share/${share.token}`, undefined, null)).status).toBe(200);

      stopServer();
      for (const [method, url, body] of [
        ['GET', '/api/v1/me'],
        ['GET', `/api/v1/reports/${report.id}`],
        ['POST', '/api/v1/workspaces', { name: 'During' }],
        ['GET', '/api/v1/workspaces'],
      ] as const) {
        const res = await call(method, url, body);
        expect(res.status, `${method} ${url}`).toBe(503);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.headers['retry-after']).toBe('5');
        expect(JSON.parse(res.body)).toMatchObject({ status: 503, type: 'urn:chronicle:problem:unavailable' });
        expect(res.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres/);
      }
      const page = await call('GET', `/share/${share.token}`, undefined, null);
      expect(page.status).toBe(503);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect((await call('GET', '/readyz', undefined, null)).status).toBe(503);
      expect((await call('GET', '/healthz', undefined, null)).status).toBe(200);

      startServer();
      // The pool reconnects by itself: poll readiness, then everything works as before.
      while ((await call('GET', '/readyz', undefined, null)).status !== 200) await delay(100);
      expect((await call('GET', '/api/v1/me')).status).toBe(200);
      expect(JSON.parse((await call('GET', `/api/v1/reports/${report.id}`)).body)).toMatchObject({ name: 'Kept' });
      expect((await call('POST', '/api/v1/workspaces', { name: 'After' })).status).toBe(201);
      const names = (JSON.parse((await call('GET', '/api/v1/workspaces')).body) as { name: string }[]).map((w) => w.name).sort();
      expect(names).toEqual(['After', 'Before']);
      expect((await call('GET', `/share/${share.token}`, undefined, null)).status).toBe(200);
    },
  );
});
