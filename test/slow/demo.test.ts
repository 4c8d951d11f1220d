/** `npm run demo` from start to its prompt, on a fresh embedded database; then what it printed works. */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startServerProcess } from '../helpers/server-process.js';

describe('npm run demo', () => {
  it(
    'fills a fresh database through the API, prints the share links first, serves them, and cleans up on SIGINT',
    { timeout: 300_000 },
    async () => {
      const demo = startServerProcess({ PORT: '', DATA_DIR: '', DATABASE_URL: '' }, 'scripts/demo.ts', ['--port', '0']);
      await demo.waitFor('Press Ctrl-C to stop.');
      const out = demo.output();
      expect(out).toMatch(/\[4\/7\] Logging three months of time: \d+ entries through POST \/time-entries\/batch/);
      expect(out).toContain('Northwind summary');
      expect(out).toContain('Northwind weekly status');
      expect(out).toContain('Northwind invoice summary');
      expect(out).toContain('Website relaunch timesheet, last month');

      // What to try next starts with the share page.
      const tryNext = out
        .slice(out.indexOf('[7/7]'))
        .split('\n')
        .filter((l) => l.trim() !== '');
      expect(tryNext[1]).toMatch(/^Share page: +http:\/\/127\.0\.0\.1:\d+\/share\/[A-Za-z0-9_-]{22}$/);
      const shareUrl = /^Share page: +(\S+)$/m.exec(out)![1]!;
      const lockedUrl = /^Passcode share page: +(\S+)/m.exec(out)![1]!;
      const base = /Chronicle is running at (\S+) \(data in (\S+),/.exec(out)!;
      const token = /CHRONICLE_TOKEN=(\S+)/.exec(out)![1]!;
      const dataDir = base[2]!.replace(/,$/, '');

      const page = await fetch(shareUrl);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Website relaunch timesheet, last month');
      const locked = await fetch(lockedUrl);
      expect(locked.status).toBe(200);
      expect(await locked.text()).toContain('passcode');
      const unlocked = await fetch(lockedUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'passcode=northwind-demo',
      });
      expect(await unlocked.text()).toContain('Northwind summary');

      // The web sign-in it prints works.
      const web = /^Web app: +(\S+) +\(sign in as (\S+), password: ([^;]+);/m.exec(out)!;
      expect((await fetch(web[1]!)).status).toBe(200);
      const signIn = await fetch(`${base[1]}/api/v1/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base[1]! },
        body: JSON.stringify({ email: web[2], password: web[3] }),
      });
      expect(signIn.status).toBe(201);
      expect(signIn.headers.get('set-cookie')).toMatch(/HttpOnly/i);

      const auth = { authorization: `Bearer ${token}` };
      const entries = await fetch(`${base[1]}/api/v1/time-entries?limit=1`, { headers: auth });
      expect(Number(entries.headers.get('x-total-count'))).toBeGreaterThan(1000);
      const reports = (await (await fetch(`${base[1]}/api/v1/reports`, { headers: auth })).json()) as unknown[];
      expect(reports).toHaveLength(4);
      // Northwind bills: its Invoice summary has a client's table with amounts in euros.
      const invoice = (reports as { id: string; name: string }[]).find((r) => r.name === 'Northwind invoice summary')!;
      const invoiceDocument = (await (await fetch(`${base[1]}/api/v1/reports/${invoice.id}`, { headers: auth })).json()) as {
        renderedMarkdown: string;
      };
      expect(invoiceDocument.renderedMarkdown).toContain('## Contoso Retail');
      expect(invoiceDocument.renderedMarkdown).toMatch(/\| Website relaunch \| [^|]+ \| [\d.]+ \| €120\.00\/h \| €[\d,.]+ \|/);
      const discussionUrl = /(http\S+\/discussion)/.exec(out)![1]!;
      const discussion = (await (await fetch(discussionUrl, { headers: auth })).json()) as { comments: unknown[]; reactions: unknown[] };
      expect(discussion.comments).toHaveLength(3);
      expect(discussion.reactions.length).toBeGreaterThan(0);
      const inbox = /curl -s -H "Authorization: Bearer (\S+)" (\S+\/api\/v1\/inbox)/.exec(out)!;
      const messages = (await (await fetch(inbox[2]!, { headers: { authorization: `Bearer ${inbox[1]}` } })).json()) as {
        message: string;
      }[];
      expect(messages[0]?.message).toContain('invoicing run');

      demo.child.kill('SIGINT');
      expect(await demo.exited).toBe(0);
      expect(existsSync(dataDir)).toBe(false);
    },
  );
});
