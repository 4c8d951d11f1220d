/**
 * Links that follow the newest version (delivery.md §2): minted by the owner, moved on in the
 * transaction that appends each version (an edit, a scheduled run), served by any process at
 * the version the view's count found, never an older one; recipients' links never follow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildPeerApp, buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { editReport, newReport, type TestReport } from '../helpers/report-factories.js';
import { peerDatabase } from '../helpers/test-database.js';
import { rowsOf } from '../../src/db/rows.js';

let t: TestContext;
let owner: TestUser;
let ana: TestUser;
let ws: string;

beforeAll(async () => {
  t = await buildTestApp();
  t.clock.set('2026-11-20T10:00:00.000Z');
  owner = await newUser(t, { timezone: 'Europe/Berlin' });
  ana = await newUser(t);
  ws = (await newWorkspace(t, owner)).id;
  await addMember(t, ws, ana, 'member', owner.token);
  await t.post(
    '/api/v1/time-entries',
    { workspaceId: ws, start: '2026-11-02T09:00:00.000Z', minutes: 60, description: 'Planning' },
    owner.token,
  );
});
afterAll(() => t.close());

const page = (app: TestContext, token: string) => app.request('GET', `/share/${token}`, { token: null });
const versionOn = (html: string) => Number(/<dt>Version<\/dt><dd>(\d+)<\/dd>/.exec(html)?.[1]);

async function reportWithLinks(): Promise<{ report: TestReport; following: any; fixed: any }> {
  const report = await newReport(t, owner, [ws], { name: 'Monthly hours' });
  const following = (await t.post(`/api/v1/reports/${report.id}/shares`, { follows: 'latest' }, owner.token)).body;
  const fixed = (await t.post(`/api/v1/reports/${report.id}/shares`, {}, owner.token)).body;
  return { report, following, fixed };
}

describe('links that follow the newest version', () => {
  it('serve each new version from the view after it is made, while a version link stays where it was', async () => {
    const { report, following, fixed } = await reportWithLinks();
    expect(following).toMatchObject({ follows: 'latest', version: 1 });
    expect(fixed).toMatchObject({ follows: 'version', version: 1 });
    const first = await page(t, following.token);
    expect(first.status).toBe(200);
    expect(versionOn(first.text)).toBe(1);
    expect(first.text).toContain('This link always shows the newest version of the report.');
    expect((await page(t, fixed.token)).text).not.toContain('always shows the newest version');

    await editReport(t, owner, report, { name: 'Monthly hours, corrected' });
    const second = await page(t, following.token);
    expect(versionOn(second.text)).toBe(2);
    expect(second.text).toContain('Monthly hours, corrected');
    expect(versionOn((await page(t, fixed.token)).text)).toBe(1);

    const listed = (await t.get(`/api/v1/reports/${report.id}/shares`, owner.token)).body as any[];
    const byId = new Map(listed.map((s) => [s.id, s]));
    expect(byId.get(following.id)).toMatchObject({ follows: 'latest', version: 2, viewCount: 2 });
    expect(byId.get(fixed.id)).toMatchObject({ follows: 'version', version: 1, viewCount: 2 });
  });

  it('are written in the locale of the version they serve: its labels, dates, download links and note', async () => {
    const germanOwner = await newUser(t, { timezone: 'Europe/Berlin', locale: 'de' });
    const wsDe = (await newWorkspace(t, germanOwner)).id;
    const report = await newReport(t, germanOwner, [wsDe], { name: 'Stunden' });
    const following = (await t.post(`/api/v1/reports/${report.id}/shares`, { follows: 'latest' }, germanOwner.token)).body;
    const fixed = (await t.post(`/api/v1/reports/${report.id}/shares`, {}, germanOwner.token)).body;
    await t.put(`/api/v1/reports/${report.id}/schedule`, { frequency: 'weekly', weekday: 'monday', time: '09:00' }, germanOwner.token);

    const first = (await page(t, following.token)).text;
    expect(first).toContain('<html lang="de">');
    expect(first).toContain('<dt>Zeitraum</dt><dd><time datetime="2026-11-01">01.11.2026</time>');
    expect(first).toMatch(/<p class="downloads">Herunterladen <a href="\/share\/[^"]+\/export\.pdf" download="">PDF<\/a>/);
    expect(first).toContain(
      `Dieser Link zeigt immer die neueste Version des Berichts. Die nächste ist fällig am <time datetime="2026-11-23T08:00:00.000Z">${new Intl.DateTimeFormat('de', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Berlin' }).format(new Date('2026-11-23T08:00:00.000Z'))}</time> (Europe/Berlin).`,
    );
    expect(first).not.toMatch(/Period|Download|newest version/);

    // A version keeps the locale it was rendered in; the next one is written in the report's new one.
    await editReport(t, germanOwner, report, { options: { locale: 'fr' } });
    const second = (await page(t, following.token)).text;
    expect(second).toContain('<html lang="fr">');
    expect(second).toContain('<dt>Période</dt>');
    expect(second).toContain('<p class="downloads">Télécharger <a');
    expect(second).toContain('Ce lien affiche toujours la dernière version du rapport.');
    const kept = (await page(t, fixed.token)).text;
    expect(kept).toContain('<html lang="de">');
    expect(kept).toContain('<p class="downloads">Herunterladen <a');
    expect(kept).not.toContain('class="follows"');
  });

  it('show a scheduled run’s version, and when the next run is due on the owner’s clock', async () => {
    const { report, following } = await reportWithLinks();
    await t.put(`/api/v1/reports/${report.id}/schedule`, { frequency: 'weekly', weekday: 'monday', time: '09:00' }, owner.token);
    expect((await page(t, following.token)).text).toContain(
      'The next is due <time datetime="2026-11-23T08:00:00.000Z">23 November 2026 at 09:00</time> (Europe/Berlin).',
    );
    t.clock.set('2026-11-23T08:00:00.000Z');
    await t.app.chronicle.scheduler.tick();
    const queued = rowsOf<{ id: string }>(
      await t.database.db.execute(sql`select id from schedule_runs where report_id = ${report.id} and status = 'queued'`),
    );
    for (const { id } of queued) await t.app.chronicle.scheduler.execute(id);
    const after = await page(t, following.token);
    expect(versionOn(after.text)).toBe(2);
    expect(after.text).toContain('>30 November 2026 at 09:00</time> (Europe/Berlin).');
    t.clock.set('2026-11-20T10:00:00.000Z');
  });

  it('download the version they serve now, and stop at revocation like any link', async () => {
    const { report, following } = await reportWithLinks();
    await editReport(t, owner, report, { name: 'Renamed for the download' });
    const csv = await t.request('GET', `/share/${following.token}/export.csv`, { token: null });
    expect(csv.status).toBe(200);
    expect(String(csv.headers['content-disposition'])).toContain('v2');
    expect((await t.post(`/api/v1/report-shares/${following.id}/revoke`, {}, owner.token)).status).toBe(200);
    expect((await page(t, following.token)).status).toBe(404);
  });

  it('are the owner’s alone: a recipient’s link serves the delivered version', async () => {
    const { report } = await reportWithLinks();
    await t.post(`/api/v1/reports/${report.id}/send`, { recipientUserIds: [ana.id] }, owner.token);
    const [message] = (await t.get('/api/v1/inbox', ana.token)).body as any[];
    const refused = await t.post(`/api/v1/inbox/${message.id}/shares`, { follows: 'latest' }, ana.token);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toMatchObject([{ path: '/follows' }]);
    expect((await t.post(`/api/v1/reports/${report.id}/shares`, { follows: 'newest' }, owner.token)).status).toBe(400);
    expect((await t.post(`/api/v1/reports/${report.id}/shares`, { follows: 'latest' }, ana.token)).status).toBe(404);
    const own = await t.post(`/api/v1/inbox/${message.id}/shares`, { follows: 'version' }, ana.token);
    expect(own.body).toMatchObject({ follows: 'version', version: 1 });
  });

  it('never go back to an older version while another process edits the report', async () => {
    const { report, following } = await reportWithLinks();
    const peerDb = await peerDatabase();
    const peer = await buildPeerApp(t, {}, peerDb.database);
    try {
      let seen = 0;
      for (let edit = 2; edit <= 4; edit++) {
        const views = Promise.all([page(t, following.token), page(peer, following.token), page(t, following.token)]);
        await editReport(peer, owner, report, { name: `Edit ${edit}` });
        for (const res of await views) {
          const version = versionOn(res.text);
          expect(version).toBeGreaterThanOrEqual(seen);
        }
        // After the edit has committed, every process serves it.
        for (const app of [t, peer, t]) {
          const version = versionOn((await page(app, following.token)).text);
          expect(version).toBe(edit);
          seen = version;
        }
      }
    } finally {
      await peer.close();
      if (peerDb.own) await peerDb.database.close();
    }
  });
});
