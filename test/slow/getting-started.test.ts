/**
 * docs/getting-started.md, run as written: every ```sh block in order, as one bash script with
 * `set -euo pipefail`, against a real server process on a fresh database (a new PGlite data
 * directory, or a new PostgreSQL database when TEST_DATABASE_URL is set). The only block not run
 * is the start command, marked in the guide; the server started here takes its place, and its
 * address and first-start admin token reach the script through the variables the guide's own
 * first lines read (CHRONICLE, ADMIN_TOKEN).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { freePort, startServerProcess, type ServerProcess } from '../helpers/server-process.js';

const GUIDE = 'docs/getting-started.md';
/** The HTML comment (invisible on the rendered page) right before the start command's block. */
const START_MARKER = '<!-- getting-started test: the start command';

interface Block {
  code: string;
  start: boolean;
}

/** Every ```sh block of the guide, in order, and whether it is the marked start command. */
function shellBlocks(markdown: string): Block[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => ({
    code: match[1] ?? '',
    start: markdown.slice(0, match.index).trimEnd().split('\n').at(-1)?.startsWith(START_MARKER) ?? false,
  }));
}

/**
 * Runs `script` with bash; resolves with its exit code and output. Called in a test: a script still
 * running when the test ends (it failed or timed out meanwhile) is killed with what it started.
 */
function runBash(script: string, env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // A group of its own, so that its curl and node children end with it.
    const child = spawn('bash', ['-c', script], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    onTestFinished(() => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group ended meanwhile
      }
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code, stdout, stderr });
    });
  });
}

/** Polls /readyz until it answers 200 (a refused connection or a 503 counts as not yet). */
async function untilReady(base: string, server: ServerProcess): Promise<void> {
  await server.waitFor('Server listening');
  for (;;) {
    const res = await fetch(`${base}/readyz`).catch(() => null);
    if (res?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const blocks = shellBlocks(readFileSync(GUIDE, 'utf8'));
const workDir = mkdtempSync(join(tmpdir(), 'chronicle-guide-'));
let database: { env: NodeJS.ProcessEnv; drop: () => Promise<void> };

beforeAll(async () => {
  const template = inject('pgTemplate');
  if (!template) {
    database = { env: { DATA_DIR: join(workDir, 'data'), DATABASE_URL: '', SHARE_KEY: '' }, drop: async () => {} };
    return;
  }
  // A new, empty database (not the migrated template): the server migrates it and meets its first start.
  const name = `${template.runId}_getting_started`;
  const admin = new pg.Client({ connectionString: template.baseUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(template.baseUrl);
  url.pathname = `/${name}`;
  database = {
    env: { DATABASE_URL: url.toString(), SHARE_KEY: Buffer.alloc(32, 7).toString('base64'), DATA_DIR: '' },
    drop: async () => {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
});
afterAll(async () => {
  await database.drop();
  rmSync(workDir, { recursive: true, force: true });
});

describe('docs/getting-started.md', () => {
  it('starts with the README’s command, marked as the one block the test replaces, then reads CHRONICLE and ADMIN_TOKEN', () => {
    const starts = blocks.filter((block) => block.start);
    expect(starts).toHaveLength(1);
    expect(blocks[0]?.start).toBe(true);
    expect(starts[0]?.code.trim()).toBe('npm ci && npm run dev');
    expect(readFileSync('README.md', 'utf8')).toContain('npm ci && npm run dev');
    // The script gets the server's address and token only through these lines.
    expect(blocks[1]?.code).toMatch(/^CHRONICLE=\$\{CHRONICLE:-http:\/\/127\.0\.0\.1:3000\}$/m);
    expect(blocks[1]?.code).toMatch(/^ADMIN_TOKEN=\$\{ADMIN_TOKEN:[?-]/m);
    // An HTTP error must stop the script, so every request fails on one.
    const curls = blocks.flatMap((block) => block.code.split('\n')).filter((line) => /(^|[\s($])curl /.test(line));
    expect(curls.length).toBeGreaterThan(20);
    for (const line of curls) expect(line).toContain('--fail-with-body');
  });

  it('runs from a fresh database to a shared, discussed report', async () => {
    const port = await freePort();
    const server = startServerProcess({
      ...database.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_BASE_URL: '',
      BOOTSTRAP_ADMIN_TOKEN: '',
      LOG_LEVEL: 'info',
      PASSCODE_PBKDF2_ITERATIONS: '100000',
      // The guide polls for a scheduled run and its mail; the job queue is asked every half second
      // (the least it allows) instead of every 2 s, so the script waits less for the same outcome.
      JOB_POLL_SECONDS: '0.5',
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      await untilReady(base, server);
      // The token the first start prints, as a reader would copy it.
      const token = /^\s+(chr_[A-Za-z0-9_-]+)$/m.exec(server.output())?.[1];
      expect(token).toBeDefined();

      const script = ['set -euo pipefail', ...blocks.filter((block) => !block.start).map((block) => block.code)].join('\n');
      const result = await runBash(
        script,
        {
          ...process.env,
          PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
          CHRONICLE: base,
          ADMIN_TOKEN: token,
        },
        workDir,
      );
      const report = `exit ${result.code}\n--- stdout\n${result.stdout.slice(-4000)}\n--- stderr\n${result.stderr.slice(-4000)}`;
      expect(result.code, report).toBe(0);
      expect(result.stderr, report).toBe('');

      const out = result.stdout;
      expect(out).toMatch(/^ready\nadmin@localhost\n/);
      // The preview renders the batch's entries along with the single ones.
      expect(out).toContain('| Website relaunch | Homepage visual design | design | 2h 30m |');
      expect(out).toContain('**Total:** 10h 15m (10.25 h) in 6 entries over 3 days');
      // The edit renamed the report, and the note it left out is gone.
      expect(out).toMatch(/^Website relaunch: design sprint\nnull\n2\n/m);
      // Ana's inbox lists the message; the share page shows the report behind its passcode.
      expect(out).toContain('Olivia Owner: Website relaunch: design sprint v2: Ana, please check your hours before Friday.');
      expect(out).toMatch(new RegExp(`^${base}/share/[A-Za-z0-9_-]{22}$`, 'm'));
      expect(out).toContain('<form method="post">');
      expect(out).toContain('<h1>Website relaunch: design sprint</h1>');
      // The schedule's next runs are Mondays at 09:00 with the owner's offset, and its run-now went through the job engine.
      expect(out).toMatch(/"\d{4}-\d{2}-\d{2}T09:00:00\.000[+-]\d{2}:\d{2}"/);
      expect(out).toMatch(/^manual run succeeded: version \d+, delivered to 1$/m);
      // The discussion holds Ana's comment with Olivia's reaction, and Ana's reaction on the version.
      const discussionStart = out.lastIndexOf('\n{\n') + 1;
      const discussion = JSON.parse(out.slice(discussionStart, out.indexOf('\n}\n', discussionStart) + 2)) as {
        shared: boolean;
        reactions: { emoji: string; userNames: string[] }[];
        comments: { authorName: string; body: string; reactions: { emoji: string; userNames: string[] }[] }[];
      };
      expect(discussion.shared).toBe(true);
      expect(discussion.reactions).toMatchObject([{ emoji: 'rocket', userNames: ['Ana Souza'] }]);
      expect(discussion.comments).toMatchObject([
        {
          authorName: 'Ana Souza',
          body: 'My hours are right. The **design review** ran 15 minutes over, though.',
          reactions: [{ emoji: '+1', userNames: ['Olivia Owner'] }],
        },
      ]);
      // The Invoice summary of step 10: the project rate from the second day, Ana's own rate, the
      // workspace rate before it; 15-minute rounding; the client's lines and totals in en-GB.
      expect(out).toContain('**Billable:** 9h 45m · **Amount:** €952.50');
      expect(out).toContain('_Billable time is rounded up to 15 minutes per entry._');
      expect(out).toContain('## Northwind Traders');
      expect(out).toContain('| Website relaunch | Ana Souza | 4.00 | €95.00/h | €380.00 |');
      expect(out).toContain('| Website relaunch | Olivia Owner | 3.75 | €110.00/h | €412.50 |');
      expect(out).toContain('| Website relaunch | Olivia Owner | 2.00 | €80.00/h | €160.00 |');
      expect(out).toContain('| **Total due in EUR** | | **€952.50** |');
      // The unassigned entry is no client's.
      expect(out.slice(out.indexOf('## Northwind Traders'))).not.toContain('Weekly planning');
      // Step 12: without SMTP the client's mail (with the PDF) and Ana's wait in the outbox.
      expect(out).toMatch(/^accounts@northwind\.example: Website relaunch: design sprint \(.+\) \(.+\.pdf\)$/m);
      expect(out).toMatch(/^ana@example\.com: Olivia Owner sent you “Website relaunch: design sprint” \(.+\) \(no attachment\)$/m);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
