/**
 * E-mail (delivery.md §3) against a real SMTP server on loopback: who gets which mail, what it
 * carries (parts, links, headers, the PDF), preferences and one-click unsubscribe, retries of
 * temporary refusals, permanent failures in the send history, and the outbox without SMTP. The
 * mailer is driven through its own steps (`drain`) with the pinned clock, as the job engine drives
 * it in a server; the engine, two processes and a crash are test/slow/mail-engine.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildPeerApp, buildTestApp, newUser, readOnlyToken, type TestContext, type TestUser } from '../helpers/test-app.js';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { builtInTemplateId, newReport, type TestReport } from '../helpers/report-factories.js';
import { startSmtp, type ReceivedMail, type TestSmtp } from '../helpers/smtp.js';
import { rowsOf } from '../../src/db/rows.js';

let smtp: TestSmtp;
let t: TestContext;
let owner: TestUser;
let ana: TestUser;
let ben: TestUser;
let outsider: TestUser;
let ws: string;
let wsName: string;
let report: TestReport;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await buildTestApp({ config: { smtpUrl: smtp.url, publicBaseUrl: 'https://chronicle.example' } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

beforeEach(async () => {
  t.clock.set('2026-10-20T12:00:00.000Z');
  // Each test reads the mail it caused: what earlier tests wrote (and may still retry) goes.
  await t.database.db.execute(sql`delete from mail_messages`);
  smtp.reset();
  owner = await newUser(t, { name: 'Olga Owner', timezone: 'Europe/Berlin' });
  ana = await newUser(t, { name: 'Ana Member' });
  ben = await newUser(t, { name: 'Ben Member' });
  outsider = await newUser(t);
  ({ id: ws, name: wsName } = await newWorkspace(t, owner));
  await addMember(t, ws, ana, 'member', owner.token);
  await addMember(t, ws, ben, 'member', owner.token);
  await t.post(
    '/api/v1/time-entries',
    { workspaceId: ws, start: '2026-10-19T08:00:00.000Z', minutes: 90, description: 'Review' },
    owner.token,
  );
  report = await newReport(t, owner, [ws], { name: 'Weekly hours' });
});

const drain = () => t.app.chronicle.mailer.drain();
const mailTo = (user: { email: string }): ReceivedMail[] => smtp.received.filter((m) => m.to === user.email.toLowerCase());
const send = (recipientUserIds: string[], extra: Record<string, unknown> = {}) =>
  t.post(`/api/v1/reports/${report.id}/send`, { recipientUserIds, ...extra }, owner.token);
/** A header as sent (unfolded), from the raw message. */
const header = (mail: ReceivedMail, name: string) =>
  new RegExp(`^${name}:[ \t]*(.*(?:\r?\n[ \t].*)*)`, 'im')
    .exec(mail.raw)?.[1]
    ?.replace(/\r?\n[ \t]+/g, '')
    .trim() ?? null;
const messages = async () =>
  rowsOf<{ id: string; kind: string; status: string; to_address: string; attempts: number; error: string | null }>(
    await t.database.db.execute(sql`select id, kind, status, to_address, attempts, error from mail_messages order by created_at, id`),
  );

describe('a version arriving in an inbox', () => {
  it('mails each teammate recipient, once, with a link to it; not the sender, not anyone else', async () => {
    const sent = await send([ana.id, ben.id], { sendToSelf: true, message: 'Numbers for **Monday**. <script>x</script>' });
    expect(sent.status).toBe(201);
    expect(await drain()).toBe(2);
    expect(await drain()).toBe(0);
    expect(smtp.received.map((m) => m.to).sort()).toEqual([ana.email, ben.email].map((e) => e.toLowerCase()).sort());
    const [mail] = mailTo(ana);
    expect(mail!.parsed.subject).toMatch(/^Olga Owner sent you “Weekly hours” \(/);
    expect(mail!.parsed.from?.value).toEqual([{ name: 'Chronicle', address: 'chronicle@localhost' }]);
    const inboxLink = /https:\/\/chronicle\.example\/app\/inbox\/[0-9a-f-]+/;
    expect(mail!.parsed.text).toMatch(inboxLink);
    expect(mail!.parsed.html).toMatch(inboxLink);
    // The message is Markdown through the safe renderer: emphasis kept, HTML inert.
    expect(mail!.parsed.html).toContain('<strong>Monday</strong>');
    expect(mail!.parsed.html).not.toContain('<script>');
    expect(mail!.parsed.text).toContain('> Numbers for **Monday**.');
    // RFC 8058 one-click unsubscribe, and no remote image.
    expect(header(mail!, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(header(mail!, 'List-Unsubscribe')).toMatch(/^<https:\/\/chronicle\.example\/mail\/unsubscribe\/[\w.-]+>$/);
    expect(header(mail!, 'Auto-Submitted')).toBe('auto-generated');
    expect(mail!.parsed.html).not.toMatch(/<img[^>]+src="https?:/);
    expect(mail!.parsed.attachments).toEqual([]);
    expect(mail!.parsed.messageId).toMatch(/^<[0-9a-f-]+@chronicle\.example>$/);
  });

  it('attaches the PDF for a recipient who asks for it', async () => {
    expect((await t.patch('/api/v1/me/notifications', { attachPdf: true }, ana.token)).status).toBe(200);
    await send([ana.id, ben.id]);
    await drain();
    const [toAna] = mailTo(ana);
    expect(toAna!.parsed.attachments.map((a) => a.contentType)).toEqual(['application/pdf']);
    expect(toAna!.parsed.attachments[0]!.content.subarray(0, 5).toString()).toBe('%PDF-');
    expect(toAna!.parsed.attachments[0]!.filename).toMatch(/\.pdf$/);
    expect(toAna!.parsed.text).toContain('The PDF is attached.');
    expect(mailTo(ben)[0]!.parsed.attachments).toEqual([]);
  });

  it('sends nothing to a recipient who turned inbox mail off', async () => {
    await t.patch('/api/v1/me/notifications', { events: { inbox: false } }, ana.token);
    await send([ana.id, ben.id]);
    await drain();
    expect(mailTo(ana)).toEqual([]);
    expect(mailTo(ben)).toHaveLength(1);
  });

  it("shows each recipient's mail state in the owner's send history, and nothing of it to other readers", async () => {
    await t.patch('/api/v1/me/notifications', { events: { inbox: false } }, ben.token);
    await send([ana.id, ben.id]);
    const before = (await t.get(`/api/v1/reports/${report.id}/sends`, owner.token)).body[0];
    expect(before.recipients.find((r: any) => r.userId === ana.id).mail).toEqual({ status: 'queued', error: null });
    await drain();
    const after = (await t.get(`/api/v1/reports/${report.id}/sends`, owner.token)).body[0];
    expect(after.recipients.find((r: any) => r.userId === ana.id).mail).toEqual({ status: 'sent', error: null });
    expect(after.recipients.find((r: any) => r.userId === ben.id).mail).toBeNull();
    expect(after).not.toHaveProperty('emails');
    // The workspace's owner reads the report too (ana is a member); she sees no mail states.
    const asReader = await t.get(`/api/v1/reports/${report.id}/sends`, ana.token);
    if (asReader.status === 200) {
      for (const r of asReader.body[0].recipients) expect(r).not.toHaveProperty('mail');
    } else {
      expect(asReader.status).toBe(404);
    }
  });
});

describe('retries and failures', () => {
  it('retries a temporary refusal with backoff and delivers the message once', async () => {
    smtp.refuse(451, 2);
    await send([ana.id]);
    await drain();
    expect(mailTo(ana)).toEqual([]);
    const [first] = await messages();
    expect(first).toMatchObject({ status: 'queued', attempts: 1 });
    expect(first!.error).toMatch(/451/);
    // Not due again before its backoff (30 s).
    t.clock.advance(29_000);
    expect(await drain()).toBe(0);
    t.clock.advance(2_000);
    await drain();
    expect((await messages())[0]).toMatchObject({ status: 'queued', attempts: 2 });
    t.clock.advance(61_000);
    await drain();
    expect(smtp.refusedCount()).toBeGreaterThanOrEqual(2);
    expect(mailTo(ana)).toHaveLength(1);
    expect((await messages())[0]).toMatchObject({ status: 'sent', attempts: 3, error: null });
    const metrics = (await t.request('GET', '/metrics', { token: null })).text;
    expect(metrics).toContain('chronicle_mail_attempts_total{kind="delivery",outcome="retry"} 2');
    t.clock.advance(3_600_000);
    await drain();
    expect(mailTo(ana)).toHaveLength(1);
  });

  it('gives up on temporary refusals after 24 hours', async () => {
    smtp.refuse(451, 100);
    await send([ana.id]);
    for (let hour = 0; hour < 26; hour++) {
      await drain();
      t.clock.advance(3_600_000);
    }
    const [message] = await messages();
    expect(message!.status).toBe('failed');
    expect(message!.error).toMatch(/^Gave up after 24 hours of temporary failures\. Last: .*451/);
  });

  it('records a permanent refusal at once and shows it to the sender', async () => {
    smtp.refuse(550, 1);
    await send([ana.id]);
    await drain();
    const [message] = await messages();
    expect(message).toMatchObject({ status: 'failed', attempts: 1 });
    const entry = (await t.get(`/api/v1/reports/${report.id}/sends`, owner.token)).body[0];
    expect(entry.recipients[0].mail.status).toBe('failed');
    expect(entry.recipients[0].mail.error).toMatch(/550/);
    t.clock.advance(3_600_000);
    await drain();
    expect(mailTo(ana)).toEqual([]);
  });

  it('sends a message once when two processes drain at the same time', async () => {
    const peer = await buildPeerApp(t, { smtpUrl: smtp.url, publicBaseUrl: 'https://chronicle.example' });
    try {
      await send([ana.id, ben.id]);
      await send([ana.id]);
      await Promise.all([drain(), peer.app.chronicle.mailer.drain(), drain()]);
      expect(mailTo(ana)).toHaveLength(2);
      expect(mailTo(ben)).toHaveLength(1);
      expect(new Set(smtp.received.map((m) => m.parsed.messageId)).size).toBe(3);
    } finally {
      await peer.close();
    }
  });
});

describe('preferences', () => {
  it('has defaults, changes the named fields and answers all of them', async () => {
    expect((await t.get('/api/v1/me/notifications', ana.token)).body).toEqual({
      events: { inbox: true, discussion: true, scheduleProblems: true },
      attachPdf: false,
      digest: 'immediate',
    });
    const changed = await t.patch('/api/v1/me/notifications', { events: { discussion: false }, digest: 'daily' }, ana.token);
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({
      events: { inbox: true, discussion: false, scheduleProblems: true },
      attachPdf: false,
      digest: 'daily',
    });
    expect((await t.get('/api/v1/me/notifications', ana.token)).body).toEqual(changed.body);
    // Another user's are their own.
    expect((await t.get('/api/v1/me/notifications', ben.token)).body.digest).toBe('immediate');
  });

  it.each([
    [{}, /fewer than 1|must NOT have fewer/],
    [{ digest: 'weekly' }, /digest/],
    [{ events: { inbox: 'no' } }, /inbox/],
    [{ events: { marketing: true } }, /marketing|additional/],
    [{ attachPdf: true, extra: 1 }, /extra|additional/],
  ])('refuses %j with a 400 problem', async (body, pattern) => {
    const answer = await t.patch('/api/v1/me/notifications', body, ana.token);
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(JSON.stringify(answer.body)).toMatch(pattern);
  });

  it('needs a token, and the write scope to change', async () => {
    expect((await t.get('/api/v1/me/notifications', null)).status).toBe(401);
    const reader = await readOnlyToken(t, ana);
    expect((await t.get('/api/v1/me/notifications', reader)).status).toBe(200);
    expect((await t.patch('/api/v1/me/notifications', { attachPdf: true }, reader)).status).toBe(403);
  });
});

describe('one-click unsubscribe', () => {
  const unsubscribeUrlOf = (mail: ReceivedMail) => {
    const match = /^<(https:\/\/chronicle\.example(\/mail\/unsubscribe\/[^>]+))>$/.exec(header(mail, 'List-Unsubscribe') ?? '');
    if (!match) throw new Error('no List-Unsubscribe URL');
    return match[2]!;
  };

  it("turns off the mail's event for its recipient with one POST; opening the link changes nothing", async () => {
    await send([ana.id]);
    await drain();
    const path = unsubscribeUrlOf(mailTo(ana)[0]!);
    const page = await t.request('GET', path, { token: null });
    expect(page.status).toBe(200);
    expect(page.text).toContain('reports that arrive in your inbox');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect((await t.get('/api/v1/me/notifications', ana.token)).body.events.inbox).toBe(true);
    const done = await t.request('POST', path, {
      token: null,
      raw: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(done.status).toBe(200);
    expect(done.text).toContain('You are unsubscribed');
    expect((await t.get('/api/v1/me/notifications', ana.token)).body.events).toEqual({
      inbox: false,
      discussion: true,
      scheduleProblems: true,
    });
    // Again: nothing changes, still 200.
    expect((await t.request('POST', path, { token: null })).status).toBe(200);
    await send([ana.id, ben.id]);
    await drain();
    expect(mailTo(ana)).toHaveLength(1);
  });

  it("cannot be altered to reach anyone else's preferences", async () => {
    await send([ana.id]);
    await drain();
    const path = unsubscribeUrlOf(mailTo(ana)[0]!);
    const token = path.split('/').pop()!;
    // The token is the payload (version, kind, event, the user's id as 16 bytes) and a 12-byte MAC.
    const bytes = Buffer.from(token, 'base64url');
    const forged = Buffer.concat([bytes.subarray(0, 3), Buffer.from(ben.id.replace(/-/g, ''), 'hex'), bytes.subarray(19)]).toString(
      'base64url',
    );
    const flipped = Buffer.from(bytes);
    flipped[30] = flipped[30]! ^ 1;
    for (const bad of [forged, flipped.toString('base64url'), token.slice(0, 42), `${token}A`, 'x'.repeat(800)]) {
      const answer = await t.request('POST', `/mail/unsubscribe/${bad}`, { token: null });
      expect(answer.status, `${bad}: ${answer.text.slice(0, 300)}`).toBe(404);
      expect(answer.headers['content-type']).toMatch(/text\/html/);
    }
    expect((await t.get('/api/v1/me/notifications', ben.token)).body.events.inbox).toBe(true);
    expect((await t.get('/api/v1/me/notifications', ana.token)).body.events.inbox).toBe(true);
  });
});

describe('discussion mail', () => {
  const comment = (user: TestUser, body: string) =>
    t.post(`/api/v1/report-contents/${report.reportContentId}/comments`, { body }, user.token);

  it('mails the other participants, batched: at most one mail per discussion every 10 minutes', async () => {
    await send([ana.id, ben.id]);
    await drain();
    smtp.received.length = 0;
    expect((await comment(ana, 'Looks right to me')).status).toBe(201);
    await drain();
    // The owner and the other recipient; not the author.
    expect(mailTo(owner)).toHaveLength(1);
    expect(mailTo(ben)).toHaveLength(1);
    expect(mailTo(ana)).toEqual([]);
    expect(mailTo(owner)[0]!.parsed.text).toContain('Ana Member commented: Looks right to me');
    expect(mailTo(owner)[0]!.parsed.subject).toBe('1 new comment on “Weekly hours”');

    t.clock.advance(60_000);
    await comment(ben, 'One question about Tuesday');
    const reaction = await t.put(`/api/v1/report-contents/${report.reportContentId}/reactions`, { emoji: '+1' }, ana.token);
    expect(reaction.status).toBe(200);
    await drain();
    expect(mailTo(owner)).toHaveLength(1);
    t.clock.advance(9 * 60_000);
    await drain();
    const batch = mailTo(owner);
    expect(batch).toHaveLength(2);
    expect(batch[1]!.parsed.subject).toBe('1 new comment and 1 new reaction on “Weekly hours”');
    expect(batch[1]!.parsed.text).toContain('Ben Member commented: One question about Tuesday');
    expect(batch[1]!.parsed.text).toContain('Ana Member reacted 👍');
    expect(mailTo(outsider)).toEqual([]);
  });

  it('sends nothing to a participant who turned discussion mail off', async () => {
    await send([ana.id]);
    await t.patch('/api/v1/me/notifications', { events: { discussion: false } }, owner.token);
    await drain();
    smtp.received.length = 0;
    await comment(ana, 'Hello');
    await drain();
    expect(smtp.received).toEqual([]);
  });
});

describe('set-password links', () => {
  it('mails the link when the admin asks, and only then', async () => {
    const shown = await t.post(`/api/v1/users/${ana.id}/password-link`, undefined);
    expect(shown.status).toBe(201);
    expect(shown.body.emailed).toBeUndefined();
    await drain();
    expect(mailTo(ana)).toEqual([]);
    const mailed = await t.post(`/api/v1/users/${ana.id}/password-link`, { email: true });
    expect(mailed.status).toBe(201);
    expect(mailed.body.emailed).toBe(true);
    await drain();
    const [mail] = mailTo(ana);
    expect(mail!.parsed.subject).toBe('Set your Chronicle password');
    expect(mail!.parsed.text).toContain(mailed.body.url);
    // The link is a credential: never stored in the clear.
    const stored = JSON.stringify(await t.database.db.execute(sql`select * from mail_messages`));
    expect(stored).not.toContain(mailed.body.url.split('#')[1]);
    expect((await t.post(`/api/v1/users/${ana.id}/password-link`, { email: 'yes' })).status).toBe(400);
    expect((await t.post(`/api/v1/users/${ana.id}/password-link`, { email: true }, ben.token)).status).toBe(404);
  });
});

describe('the outbox without SMTP', () => {
  it('keeps every message for instance admins to read, and logs nothing of its links', async () => {
    const local = await buildPeerApp(t, { publicBaseUrl: 'https://chronicle.example' });
    try {
      const lines: string[] = [];
      const log = local.app.log as unknown as { info: (...args: unknown[]) => void };
      const info = log.info.bind(log);
      log.info = (...args: unknown[]) => {
        lines.push(JSON.stringify(args));
        info(...args);
      };
      await send([ana.id]);
      await local.app.chronicle.mailer.drain();
      expect(smtp.received).toEqual([]);
      const outbox = await local.get('/api/v1/admin/outbox');
      expect(outbox.status).toBe(200);
      expect(outbox.headers['cache-control']).toContain('no-store');
      expect(outbox.headers['x-total-count']).toBe('1');
      const [kept] = outbox.body;
      expect(kept).toMatchObject({ kind: 'delivery', to: ana.email.toLowerCase(), status: 'kept', attempts: 1, error: null });
      expect(kept.subject).toMatch(/^Olga Owner sent you/);
      expect(kept.text).toMatch(/https:\/\/chronicle\.example\/app\/inbox\//);
      expect(kept.html).toContain('<!doctype html>');
      expect(lines.some((l) => l.includes('mail kept in the outbox'))).toBe(true);
      expect(lines.join('\n')).not.toContain('/app/inbox/');
      expect((await local.get('/api/v1/admin/outbox', ana.token)).status).toBe(403);
      expect((await local.get('/api/v1/admin/outbox', null)).status).toBe(401);
      expect((await local.get('/api/v1/admin/outbox?status=sent')).body).toEqual([]);
      expect((await local.get('/api/v1/admin/outbox?status=lost')).status).toBe(400);
    } finally {
      await local.close();
    }
  });
});

describe('scheduled runs', () => {
  const schedule = (body: Record<string, unknown>) =>
    t.put(`/api/v1/reports/${report.id}/schedule`, { frequency: 'weekly', weekday: 'monday', time: '09:00', ...body }, owner.token);
  const runNow = async (): Promise<string> => {
    const run = await t.post(`/api/v1/reports/${report.id}/schedule/run-now`, undefined, owner.token);
    expect(run.status).toBe(202);
    await t.app.chronicle.scheduler.execute(run.body.id);
    return run.body.id;
  };
  const shareLinkIn = (mail: ReceivedMail) => /https:\/\/chronicle\.example(\/share\/[\w-]{22})/.exec(mail.parsed.text ?? '')?.[1];

  it('mails each outside address a link of its own and the PDF, never a passcode, and counts views per address', async () => {
    const saved = await schedule({
      recipientUserIds: [ana.id],
      emails: ['Client@Example.com', 'books@example.org', 'client@example.com'],
      attachPdf: true,
      message: 'Our hours for the week.',
    });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ emails: ['client@example.com', 'books@example.org'], emailLink: 'version', attachPdf: true });
    const runId = await runNow();
    expect(await drain()).toBe(3);
    const [client] = smtp.received.filter((m) => m.to === 'client@example.com');
    const [books] = smtp.received.filter((m) => m.to === 'books@example.org');
    expect(mailTo(ana)).toHaveLength(1);
    for (const mail of [client!, books!]) {
      expect(mail.parsed.subject).toMatch(/^Weekly hours \(/);
      expect(mail.parsed.text).toContain('Olga Owner sent you “Weekly hours”');
      expect(mail.parsed.text).toContain('> Our hours for the week.');
      expect(mail.parsed.text).not.toMatch(/passcode/i);
      expect(mail.parsed.attachments.map((a) => a.contentType)).toEqual(['application/pdf']);
      expect(header(mail, 'List-Unsubscribe')).toMatch(/^<https:\/\/chronicle\.example\/mail\/unsubscribe\/[\w-]{43}>$/);
    }
    const clientLink = shareLinkIn(client!)!;
    expect(clientLink).not.toBe(shareLinkIn(books!));
    expect((await t.request('GET', clientLink, { token: null })).status).toBe(200);

    const [entry] = (await t.get(`/api/v1/reports/${report.id}/sends`, owner.token)).body;
    expect(entry.emails).toEqual([
      { address: 'client@example.com', mail: { status: 'sent', error: null }, viewCount: 1 },
      { address: 'books@example.org', mail: { status: 'sent', error: null }, viewCount: 0 },
    ]);
    const [run] = (await t.get(`/api/v1/reports/${report.id}/schedule/runs`, owner.token)).body;
    expect(run).toMatchObject({ id: runId, status: 'succeeded', delivered: 1, emailed: 2 });
    // The owner's links list them, by address; a recipient's view of the history does not.
    const links = (await t.get(`/api/v1/reports/${report.id}/shares`, owner.token)).body;
    expect(links.map((l: any) => l.emailAddress).sort()).toEqual(['books@example.org', 'client@example.com']);
  });

  it('writes an outside address’s mail in the language of the version it carries', async () => {
    const german = await t.post(
      '/api/v1/reports',
      {
        name: 'Wochenstunden',
        templateId: await builtInTemplateId(t),
        filters: { workspaceIds: [ws], dateRange: { from: '2026-10-19', to: '2026-10-25' } },
        options: { locale: 'de' },
      },
      owner.token,
    );
    expect(german.status).toBe(201);
    const saved = await t.put(
      `/api/v1/reports/${german.body.id as string}/schedule`,
      { frequency: 'weekly', weekday: 'monday', time: '09:00', emails: ['kunde@example.de'], attachPdf: true },
      owner.token,
    );
    expect(saved.status).toBe(201);
    const run = await t.post(`/api/v1/reports/${german.body.id as string}/schedule/run-now`, undefined, owner.token);
    await t.app.chronicle.scheduler.execute(run.body.id);
    await drain();
    const [mail] = smtp.received.filter((m) => m.to === 'kunde@example.de');
    const text = mail!.parsed.text ?? '';
    expect(text).toMatch(/^Olga Owner hat Ihnen „Wochenstunden“ für 12\.10\.2026 – 18\.10\.2026 gesendet\. Das PDF ist angehängt\.$/m);
    expect(text).toContain('Der Link zeigt diese Version des Berichts.');
    expect(text).toMatch(/^Bericht ansehen: https:\/\/chronicle\.example\/share\/[\w-]{22}$/m);
    expect(text).toContain('Sie erhalten diese E-Mail, weil Olga Owner den Versand dieses Berichts an kunde@example.de geplant hat.');
    expect(text).toMatch(/^Abmelden: https:\/\/chronicle\.example\/mail\/unsubscribe\//m);
    const html = mail!.parsed.html || '';
    expect(html).toContain('<html lang="de">');
    expect(html).toMatch(/>Bericht ansehen<\/a>/);
    expect(html).toContain('Oder öffnen Sie https://chronicle.example/share/');
    expect(html).toMatch(/>Abmelden<\/a>/);
    expect(`${text}${html}`).not.toMatch(/sent you|View the report|Unsubscribe|Or open|You get this mail/);
    // The subject is the version's name and period (the run's: last week), in its language's dates.
    expect(mail!.parsed.subject).toBe('Wochenstunden (12.10.2026 – 18.10.2026)');
  });

  it('mails one following link per address with emailLink latest, reused by every run', async () => {
    await schedule({ emails: ['client@example.com'], emailLink: 'latest' });
    await runNow();
    await runNow();
    await drain();
    const links = smtp.received.map(shareLinkIn);
    expect(links).toHaveLength(2);
    expect(links[0]).toBe(links[1]);
    expect(smtp.received[1]!.parsed.text).toContain('The link always shows the newest version of the report.');
    const page = await t.request('GET', links[0]!, { token: null });
    expect(page.text).toContain('<dt>Version</dt><dd>3</dd>');
  });

  it('stops mailing an outside address that unsubscribed, and only that one', async () => {
    await schedule({ emails: ['client@example.com', 'books@example.org'] });
    await runNow();
    await drain();
    const [client] = smtp.received.filter((m) => m.to === 'client@example.com');
    const path = /^<https:\/\/chronicle\.example(\/mail\/unsubscribe\/[\w-]+)>$/.exec(header(client!, 'List-Unsubscribe')!)![1]!;
    expect((await t.request('GET', path, { token: null })).text).toContain('Stop mail from Chronicle about this report?');
    expect((await t.request('POST', path, { token: null })).status).toBe(200);
    smtp.reset();
    await runNow();
    await drain();
    expect(smtp.received.map((m) => m.to)).toEqual(['books@example.org']);
    const [run] = (await t.get(`/api/v1/reports/${report.id}/schedule/runs`, owner.token)).body;
    expect(run.emailed).toBe(1);
  });

  it('mails the owner when a run skips a recipient, naming them and why', async () => {
    await schedule({ recipientUserIds: [ana.id, ben.id] });
    await t.del(`/api/v1/workspaces/${ws}/members/${ana.id}`, owner.token);
    await runNow();
    await drain();
    const [problem] = mailTo(owner);
    expect(problem!.parsed.subject).toBe('Scheduled run skipped recipients: “Weekly hours”');
    expect(problem!.parsed.text).toContain(`- ${ana.name} is no longer a member of \u201c${wsName}\u201d\n`);
    expect(problem!.parsed.html).toContain(`<strong>${ana.name}</strong> is no longer a member of \u201c${wsName}\u201d</li>`);
    expect(problem!.parsed.text).not.toContain(ws);
    expect(problem!.parsed.text).toContain(
      "Open the report's schedule to change its recipients, or give them back access to what the report covers.",
    );
    expect(problem!.parsed.text).toMatch(/https:\/\/chronicle\.example\/app\/reports\//);
    expect(mailTo(ben)).toHaveLength(1);
    expect(mailTo(ana)).toEqual([]);
  });

  it('refuses addresses that are not addresses, and more than 50', async () => {
    for (const emails of [['not an address'], ['a@b.c', 42], Array.from({ length: 51 }, (_, i) => `p${i}@example.com`)]) {
      const answer = await schedule({ emails });
      expect(answer.status).toBe(400);
      expect(answer.headers['content-type']).toMatch(/problem\+json/);
    }
    expect((await schedule({ emailLink: 'forever' })).status).toBe(400);
    expect((await schedule({ attachPdf: 'yes' })).status).toBe(400);
  });
});

describe('the daily digest', () => {
  it("gathers a user's inbox and discussion mail into one mail at 08:00 in their time zone", async () => {
    const tokyo = await newUser(t, { name: 'Kei Tokyo', timezone: 'Asia/Tokyo' });
    await addMember(t, ws, tokyo, 'member', owner.token);
    await t.patch('/api/v1/me/notifications', { digest: 'daily', attachPdf: true }, tokyo.token);
    // 12:00Z is 21:00 in Tokyo: the digest is due at 08:00 Tokyo, 23:00Z.
    await send([tokyo.id, ana.id]);
    await t.post(`/api/v1/report-contents/${report.reportContentId}/comments`, { body: 'Counted twice?' }, ana.token);
    await drain();
    expect(mailTo(ana)).toHaveLength(1);
    expect(mailTo(tokyo)).toEqual([]);
    t.clock.set('2026-10-20T22:59:00.000Z');
    await drain();
    expect(mailTo(tokyo)).toEqual([]);
    t.clock.set('2026-10-20T23:00:00.000Z');
    await drain();
    const [digest] = mailTo(tokyo);
    expect(digest!.parsed.subject).toBe('Your Chronicle digest: 2 updates');
    expect(digest!.parsed.text).toContain('Olga Owner sent you version 1 of “Weekly hours”');
    expect(digest!.parsed.text).toContain('Ana Member commented: Counted twice?');
    expect(digest!.parsed.attachments.map((a) => a.contentType)).toEqual(['application/pdf']);
    await drain();
    expect(mailTo(tokyo)).toHaveLength(1);
    const kinds = (await messages()).filter((m) => m.to_address === tokyo.email.toLowerCase()).map((m) => `${m.kind}:${m.status}`);
    expect(kinds.sort()).toEqual(['delivery:digested', 'digest:sent', 'discussion:digested']);
  });

  it('shows the first 50 updates of a day that brought more, says how many more, and attaches at most 10 PDFs', async () => {
    const kim = await newUser(t, { name: 'Kim Busy', timezone: 'UTC' });
    await addMember(t, ws, kim, 'member', owner.token);
    await t.patch('/api/v1/me/notifications', { digest: 'daily', attachPdf: true }, kim.token);
    await send([kim.id]);
    // 52 more of the same update, written straight into the outbox: what 52 more sends would hold.
    await t.database.db.execute(sql`
      insert into mail_messages (id, kind, recipient_user_id, to_address, send_id, delivery_id, report_content_id, data,
        attach_pdf, for_digest, status, due_at, message_id, created_at)
      select id || '-' || g, kind, recipient_user_id, to_address, send_id, delivery_id, report_content_id, data,
        attach_pdf, for_digest, status, due_at, message_id || '-' || g, created_at + g * interval '1 second'
      from mail_messages, generate_series(1, 52) g
      where recipient_user_id = ${kim.id} and status = 'held'`);
    t.clock.set('2026-10-21T08:00:00.000Z');
    await drain();
    const [digest] = mailTo(kim);
    expect(digest!.parsed.subject).toBe('Your Chronicle digest: 53 updates');
    expect(digest!.parsed.text).toContain('53 updates since your last digest.');
    const text = digest!.parsed.text!;
    expect(text.match(/^## Weekly hours$/gm)).toHaveLength(50);
    expect(text.match(/Olga Owner sent you version 1 of “Weekly hours”/g)).toHaveLength(50);
    expect(digest!.parsed.text).toContain('And 3 more in your inbox.');
    expect(digest!.parsed.attachments.filter((a) => a.contentType === 'application/pdf')).toHaveLength(10);
    // Each section says whether its PDF came with the mail: the first ten do.
    expect(text.match(/The PDF is attached\./g)).toHaveLength(10);
    const kinds = (await messages()).filter((m) => m.to_address === kim.email.toLowerCase()).map((m) => `${m.kind}:${m.status}`);
    expect(kinds.filter((k) => k === 'delivery:digested')).toHaveLength(53);
    expect(kinds.filter((k) => k === 'digest:sent')).toHaveLength(1);
  });
});
