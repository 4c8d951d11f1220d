/**
 * The `chronicle` command against a running server (the test app listening on a port, over this
 * worker's database, so both engines): imports of real-shaped Toggl and Clockify exports, report
 * renders, users, tokens, migrate, help and exit codes. Most runs are in this process (runCommand,
 * the whole command but main.ts's three lines); those that prove the process itself spawn one.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ADMIN_TOKEN, buildTestApp, readOnlyToken, type TestContext } from '../helpers/test-app.js';
import { addMember, addProjectMember, newProject, newWorkspace } from '../helpers/factories.js';
import { listen, runCli, runCliProcess } from '../helpers/cli-process.js';
import { rowsOf } from '../../src/db/rows.js';
import { dataDirFromImage } from '../helpers/pglite-image.js';

let t: TestContext;
let url: string;
const dir = mkdtempSync(join(tmpdir(), 'chronicle-cli-'));
const TOGGL = 'test/fixtures/toggl-detailed.csv';
const CLOCKIFY = 'test/fixtures/clockify-detailed.csv';
const CLOCKIFY_RATES = 'test/fixtures/clockify-rates.csv';

interface Person {
  id: string;
  token: string;
}
let olivia: Person;
let ana: Person;
let ben: Person;
let ws: string;
let website: string;
let pipeline: string;

async function person(name: string, email: string): Promise<Person> {
  const user = await t.post('/api/v1/users', { name, email, timezone: 'Europe/Berlin' });
  const token = await t.post(`/api/v1/users/${user.body.id}/tokens`, { scopes: ['read', 'write'] });
  return { id: user.body.id, token: token.body.token };
}

beforeAll(async () => {
  t = await buildTestApp();
  url = await listen(t);
  olivia = await person('Olivia Owner', 'olivia@example.com');
  ana = await person('Ana Souza', 'ana@example.com');
  ben = await person('Ben Okafor', 'ben@example.com');
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh workspace for each test: Olivia owns it, Ana is in "Website relaunch", Ben in "Data pipeline". */
beforeEach(async () => {
  ws = (await newWorkspace(t, olivia as never)).id;
  await addMember(t, ws, ana, 'member', olivia.token);
  await addMember(t, ws, ben, 'member', olivia.token);
  website = (await newProject(t, ws, olivia.token, 'Website relaunch')).id;
  pipeline = (await newProject(t, ws, olivia.token, 'Data pipeline')).id;
  await addProjectMember(t, website, ana.id, olivia.token);
  await addProjectMember(t, pipeline, ben.id, olivia.token);
});

const as = (token: string) => ({ CHRONICLE_URL: url, CHRONICLE_TOKEN: token });

interface Entry {
  userId: string;
  projectId: string | null;
  start: string;
  minutes: number;
  description: string;
  tags: string[];
  billable: boolean;
}

interface Project {
  id: string;
  name: string;
  clientId: string | null;
}

const projectsOf = async (workspace: string) => (await t.get(`/api/v1/workspaces/${workspace}/projects`, olivia.token)).body as Project[];
const clientsOf = async (workspace: string) =>
  (await t.get(`/api/v1/workspaces/${workspace}/clients`, olivia.token)).body as { id: string; name: string }[];

async function entries(): Promise<Entry[]> {
  const res = await t.get('/api/v1/time-entries', olivia.token, { workspaceId: ws, limit: 1000 });
  return (res.body as Entry[]).sort((a, b) => a.start.localeCompare(b.start));
}

describe('chronicle import toggl', () => {
  it('imports a detailed report: quoted fields, newlines, users by e-mail, projects by name, times in the given zone', async () => {
    // As a process, the way it is used: stdout, stderr and the exit code of a real run.
    const res = await runCliProcess(
      ['import', 'toggl', TOGGL, '--workspace', ws, '--timezone', 'Europe/Berlin', '--skip-invalid'],
      as(olivia.token),
    );
    expect(res.stdout).toContain('Imported 5 entries, skipped 1, failed 3.');
    expect(res.stderr).toContain('3 rows were not imported.');
    expect(res.code).toBe(1);
    // One clear line per bad row: line number, column, reason.
    expect(res.stderr).toContain('line 7, column "Email": no member of the workspace has the e-mail ghost@example.com');
    expect(res.stderr).toContain('line 8, column "Project": no project named "Internal" in the workspace (--create-projects creates it)');
    expect(res.stderr).toContain('line 10, column "Duration": cannot read "1h" as a duration (H:MM:SS)');
    expect(res.stderr).toContain('skipped line 6, column "Duration": is under 30 seconds (0 minutes)');
    expect(res.stderr).toMatch(/entries: 5\/5 \(100%\)/);
    // The projects exist without a client: they keep it, and the file's client is a warning.
    expect(res.stderr).toContain(
      'warning: line 2, column "Client": project "Website relaunch" exists without a client; an import never changes a project\'s client, so "Acme, Inc." is not applied',
    );
    expect(res.stderr).toContain('warning: line 5, column "Client": project "Data pipeline" exists without a client');
    expect((await projectsOf(ws)).map((p) => p.clientId)).toEqual([null, null]);
    expect(await clientsOf(ws)).toEqual([]);

    const got = await entries();
    expect(got).toHaveLength(5);
    expect(got[0]).toMatchObject({
      userId: ana.id,
      projectId: website,
      start: '2026-10-05T07:00:00.000Z',
      minutes: 90,
      description: 'Homepage hero, second pass',
      tags: ['design', 'review'],
    });
    expect(got[1]).toMatchObject({ userId: ana.id, minutes: 15, description: 'Standup\nnotes: "blockers" and next steps', tags: [] });
    expect(got[2]).toMatchObject({ userId: ben.id, projectId: pipeline, minutes: 120, tags: ['ops'] });
    expect(got[3]).toMatchObject({ userId: ana.id, projectId: null, minutes: 45, description: 'Unassigned reading' });
    expect(got[4]).toMatchObject({ start: '2026-10-06T20:00:00.000Z', minutes: 195, tags: ['ops', 'on-call'] });
    // Billable per row, as the file says (Yes, No, No, No, Yes).
    expect(got.map((e) => e.billable)).toEqual([true, false, true, false, true]);
  });

  it('imports nothing when a row cannot be imported, unless told to skip it', async () => {
    const res = await runCli(['import', 'toggl', TOGGL, '--workspace', ws, '--timezone', 'Europe/Berlin'], as(olivia.token));
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('Imported 0 entries, skipped 1, failed 3.');
    expect(res.stderr).toContain('Nothing was imported');
    expect(await entries()).toHaveLength(0);
  });

  it('--dry-run checks everything and changes nothing; --create-projects creates the project with its people as members', async () => {
    const dry = await runCli(
      ['import', 'toggl', TOGGL, '-w', ws, '--timezone', 'Europe/Berlin', '--create-projects', '--dry-run'],
      as(olivia.token),
    );
    expect(dry.stdout).toContain('would create client "Globex"\nwould create project "Internal" (client "Globex")');
    expect(dry.stdout).toContain('Dry run: 6 entries would be imported, 1 skipped, 2 failed');
    expect(dry.code).toBe(1);
    expect(await entries()).toHaveLength(0);
    expect(await projectsOf(ws)).toHaveLength(2);
    expect(await clientsOf(ws)).toEqual([]);

    const res = await runCli(
      ['import', 'toggl', TOGGL, '-w', ws, '--timezone', 'Europe/Berlin', '--create-projects', '--skip-invalid', '--batch-size', '2'],
      as(olivia.token),
    );
    expect(res.stdout).toContain('Imported 6 entries, skipped 1, failed 2.');
    expect(res.stderr).toContain('2 rows were not imported.');
    expect(res.stderr).toContain('created client "Globex"\ncreated project "Internal"');
    expect(res.stderr).toMatch(/entries: 2\/6 \(33%\)\nentries: 4\/6 \(66%\)\nentries: 6\/6 \(100%\)/);
    const projects = await projectsOf(ws);
    const internal = projects.find((p) => p.name === 'Internal')!;
    const clients = await clientsOf(ws);
    expect(clients.map((c) => c.name)).toEqual(['Globex']);
    expect(internal.clientId).toBe(clients[0]!.id);
    expect(projects.filter((p) => p.name !== 'Internal').map((p) => p.clientId)).toEqual([null, null]);
    expect((await t.get(`/api/v1/projects/${internal.id}/members`, olivia.token)).body.map((m: { userId: string }) => m.userId)).toEqual([
      ana.id,
    ]);
    expect((await entries()).filter((e) => e.projectId === internal.id)).toHaveLength(1);
  });

  it("gives a created project the workspace's client of that name, or a new one; billable as the file says", async () => {
    const northwind = (await t.post(`/api/v1/workspaces/${ws}/clients`, { name: 'Northwind' }, olivia.token)).body as { id: string };
    const file = join(dir, 'clients.csv');
    const header = readFileSync(TOGGL, 'utf8').split('\n')[0];
    writeFileSync(
      file,
      [
        header,
        'Ana Souza,ana@example.com,northwind,Audit,,One,yes,2026-10-05,09:00:00,,,01:00:00,,100.00',
        'Ana Souza,ana@example.com,"Acme, Inc.",Mobile app,,Two,FALSE,2026-10-05,11:00:00,,,01:00:00,,0.00',
        'Ana Souza,ana@example.com,"ACME, INC.",Kiosk,,Three,true,2026-10-05,13:00:00,,,01:00:00,,100.00',
      ].join('\n'),
    );
    const args = ['import', 'toggl', file, '-w', ws, '--timezone', 'UTC', '--create-projects'];
    const dry = await runCli([...args, '--dry-run'], as(olivia.token));
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(
      [
        'would create client "Acme, Inc."',
        'would create project "Audit" (client "Northwind")',
        'would create project "Mobile app" (client "Acme, Inc.")',
        'would create project "Kiosk" (client "Acme, Inc.")',
      ].join('\n'),
    );
    expect(dry.stdout).not.toContain('would create client "Northwind"');
    expect(await clientsOf(ws)).toHaveLength(1);

    const res = await runCli(args, as(olivia.token));
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Imported 3 entries, skipped 0, failed 0.');
    const clients = await clientsOf(ws);
    const acme = clients.find((c) => c.name === 'Acme, Inc.')!;
    expect(clients).toHaveLength(2);
    const byName = new Map((await projectsOf(ws)).map((p) => [p.name, p.clientId]));
    expect(Object.fromEntries(byName)).toEqual({
      'Website relaunch': null,
      'Data pipeline': null,
      Audit: northwind.id,
      'Mobile app': acme.id,
      Kiosk: acme.id,
    });
    expect((await entries()).map((e) => [e.description, e.billable])).toEqual([
      ['One', true],
      ['Two', false],
      ['Three', true],
    ]);
  });

  it('names an unreadable Billable cell, and leaves billable to the project without the column', async () => {
    const bad = join(dir, 'billable.csv');
    const header = readFileSync(TOGGL, 'utf8').split('\n')[0];
    writeFileSync(bad, [header, 'Ana Souza,ana@example.com,,Website relaunch,,One,Sometimes,2026-10-05,09:00:00,,,01:00:00,,'].join('\n'));
    const refused = await runCli(['import', 'toggl', bad, '-w', ws, '--timezone', 'UTC'], as(olivia.token));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('line 2, column "Billable": cannot read "Sometimes" as billable (Yes, No, true or false)');
    expect(await entries()).toHaveLength(0);

    expect((await t.patch(`/api/v1/projects/${website}`, { billableByDefault: true }, olivia.token)).status).toBe(200);
    const none = join(dir, 'no-billable.csv');
    writeFileSync(
      none,
      [
        'Email,Project,Description,Start date,Start time,Duration',
        'ana@example.com,Website relaunch,One,2026-10-05,09:00:00,01:00:00',
      ].join('\n'),
    );
    const res = await runCli(['import', 'toggl', none, '-w', ws, '--timezone', 'UTC'], as(olivia.token));
    expect(res.code).toBe(0);
    expect((await entries()).map((e) => e.billable)).toEqual([true]);
  });

  it('exits 0 when every row is imported', async () => {
    const file = join(dir, 'clean.csv');
    const lines = readFileSync(TOGGL, 'utf8').split('\n');
    writeFileSync(file, [lines[0], lines[1], lines[2], lines[3]].join('\n'));
    const res = await runCli(['import', 'toggl', file, '-w', ws, '--timezone', 'UTC'], as(olivia.token));
    expect(res.stdout).toContain('Imported 2 entries, skipped 0, failed 0.');
    expect(res.code).toBe(0);
  });

  it('leaves a batch the server refuses wholly unstored, names the row, and sends nothing after it', async () => {
    const rows = Array.from(
      { length: 6 },
      (_, i) =>
        `Ana Souza,ana@example.com,,Website relaunch,,Task ${i}${i === 3 ? '\u0000' : ''},No,2026-10-0${i + 1},09:00:00,,,00:30:00,,`,
    );
    const file = join(dir, 'nul.csv');
    writeFileSync(
      file,
      ['User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags,Amount ()', ...rows].join(
        '\n',
      ),
    );
    const res = await runCli(['import', 'toggl', file, '-w', ws, '--batch-size', '2', '--timezone', 'UTC'], as(olivia.token));
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('line 5, column "Description": must not contain U+0000');
    expect(res.stderr).toContain('refused the batch of lines 4-5');
    expect(res.stderr).toContain('lines 2-3 were imported');
    expect(res.stdout).toContain('Imported 2 entries, skipped 0, failed 4.');
    expect((await entries()).map((e) => e.description)).toEqual(['Task 0', 'Task 1']);
  });

  it("refuses a plain member's rows of other people, and an unknown workspace", async () => {
    const res = await runCli(['import', 'toggl', TOGGL, '-w', ws, '--timezone', 'UTC', '--dry-run'], as(ana.token));
    expect(res.stderr).toContain('line 5, column "Email": only a workspace admin or owner may import other people\'s time');
    expect(res.code).toBe(1);
    const missing = await runCli(['import', 'toggl', TOGGL, '-w', 'no-such-workspace'], as(olivia.token));
    expect(missing.stderr).toContain('Workspace no-such-workspace does not exist or you are not a member of it.');
    expect(missing.code).toBe(1);
  });

  it('says what is wrong with a file that is not a Toggl export, or not CSV, or missing', async () => {
    const harvest = join(dir, 'harvest.csv');
    writeFileSync(harvest, 'Date,Client,Project,Task,Notes,Hours,First Name,Last Name\n2026-10-05,Acme,Web,Design,Hero,1.5,Ana,Souza\n');
    const notToggl = await runCli(['import', 'toggl', harvest, '-w', ws], as(olivia.token));
    expect(notToggl.stderr).toContain(
      'This is not a toggl detailed report: the header has no "Email", "Start date", "Start time", "Duration" column.',
    );
    expect(notToggl.code).toBe(1);
    const broken = join(dir, 'broken.csv');
    writeFileSync(broken, 'User,Email\n"unterminated,x\n');
    const bad = await runCli(['import', 'toggl', broken, '-w', ws], as(olivia.token));
    expect(bad.stderr).toMatch(/not valid CSV/);
    expect(bad.code).toBe(1);
    const absent = await runCli(['import', 'toggl', join(dir, 'absent.csv'), '-w', ws], as(olivia.token));
    expect(absent.stderr).toContain('ENOENT');
    expect(absent.code).toBe(2);
  });
});

describe('chronicle import clockify', () => {
  it('imports a detailed report with 12-hour times, US dates, decimal and missing durations', async () => {
    const res = await runCli(
      ['import', 'clockify', CLOCKIFY, '--workspace', ws, '--timezone', 'America/New_York', '--skip-invalid'],
      as(olivia.token),
    );
    expect(res.stderr).toContain('line 5, column "Project": no project named "Research"');
    expect(res.stderr).toContain('line 6, column "Duration (h)": is 1500 minutes; an entry is at most 24 hours');
    expect(res.stdout).toContain('Imported 4 entries, skipped 0, failed 2.');
    const got = await entries();
    expect(got).toHaveLength(4);
    expect(got[0]).toMatchObject({
      userId: ana.id,
      projectId: website,
      start: '2026-10-05T13:00:00.000Z',
      minutes: 135,
      description: 'Wireframes, round 2',
    });
    expect(got[1]).toMatchObject({
      userId: ben.id,
      start: '2026-10-05T17:00:00.000Z',
      minutes: 40,
      description: 'Fix "late data" alert\nand write the postmortem',
      tags: ['ops', 'incident'],
    });
    // No duration: end minus start (5 min 30 s rounds to 6).
    expect(got[2]).toMatchObject({ projectId: null, start: '2026-10-06T20:15:00.000Z', minutes: 6 });
    expect(got[3]).toMatchObject({ minutes: 60, tags: ['review'] });
    expect(got.map((e) => e.billable)).toEqual([true, true, false, true]);
  });

  it('reads day-first dates when the file says so, or when told', async () => {
    const file = join(dir, 'eu.csv');
    const header = readFileSync(CLOCKIFY, 'utf8').split('\n')[0];
    writeFileSync(
      file,
      [
        header,
        '"Website relaunch","","A","","Ana","","ana@example.com","","No","25/10/2026","23:30","26/10/2026","00:30","1:00","1.00","0","0"',
        '"Website relaunch","","B","","Ana","","ana@example.com","","No","03/10/2026","08:00","03/10/2026","08:30","0:30","0.50","0","0"',
      ].join('\n'),
    );
    const res = await runCli(['import', 'clockify', file, '-w', ws, '--timezone', 'Europe/Berlin'], as(olivia.token));
    expect(res.code).toBe(0);
    const got = await entries();
    expect(got.map((e) => e.start)).toEqual(['2026-10-03T06:00:00.000Z', '2026-10-25T22:30:00.000Z']);
    const told = await runCli(['import', 'clockify', file, '-w', ws, '--date-format', 'MM/DD/YYYY', '--dry-run'], as(olivia.token));
    expect(told.stderr).toContain('line 2, column "Start Date": cannot read "25/10/2026" as a date (MM/DD/YYYY)');
    expect(told.code).toBe(1);
  });
});

describe('chronicle import: rates and amounts', () => {
  const putRate = async (path: string, minor: number, effectiveFrom: string) => {
    expect((await t.put(path, { hourly: { currency: 'EUR', minor }, effectiveFrom }, olivia.token)).status).toBe(200);
  };
  /** Every rate level the fixture touches, as the API lists them. */
  const allRates = async () => {
    const paths = [
      `/api/v1/workspaces/${ws}/rates`,
      `/api/v1/workspaces/${ws}/members/${ana.id}/rates`,
      `/api/v1/workspaces/${ws}/members/${ben.id}/rates`,
      `/api/v1/projects/${website}/rates`,
      `/api/v1/projects/${pipeline}/rates`,
      `/api/v1/projects/${website}/members/${ana.id}/rates`,
      `/api/v1/projects/${pipeline}/members/${ben.id}/rates`,
    ];
    const answers = await Promise.all(paths.map((path) => t.get(path, olivia.token)));
    return answers.map((res) => (res.body as { hourly: unknown; effectiveFrom: string }[]).map((r) => [r.effectiveFrom, r.hourly]));
  };

  it("warns on each line whose rate or amount differs from Chronicle's, and never imports a rate", async () => {
    // A workspace rate all along, and a project rate from 8 October, in the middle of the file.
    await putRate(`/api/v1/workspaces/${ws}/rates`, 10000, '2026-01-01');
    await putRate(`/api/v1/projects/${pipeline}/rates`, 12000, '2026-10-08');
    const before = await allRates();
    expect(before).toEqual([
      [['2026-01-01', { currency: 'EUR', minor: 10000 }]],
      [],
      [],
      [],
      [['2026-10-08', { currency: 'EUR', minor: 12000 }]],
      [],
      [],
    ]);

    const args = ['import', 'clockify', CLOCKIFY_RATES, '-w', ws, '--timezone', 'Europe/Berlin'];
    const expected = [
      "warning: line 4: the export's rate €100.00/h differs from Chronicle's €120.00/h (project rate)",
      "warning: line 4: the export's amount €100.00 differs from Chronicle's €120.00 (60 minutes at €120.00/h (project rate))",
      "warning: line 5: the export's rate €95.00/h differs from Chronicle's €100.00/h (workspace rate)",
      "warning: line 5: the export's amount €95.00 differs from Chronicle's €100.00 (60 minutes at €100.00/h (workspace rate))",
      // Ben's zone is his own to read: an entry within hours of his project's new rate is not guessed at.
      'note: 1 line near a rate change of another user whose time zone is not visible to you; its rate and amount were not compared',
    ].join('\n');
    const dry = await runCli([...args, '--dry-run'], as(olivia.token));
    expect(dry.code).toBe(0);
    expect(dry.stderr).toContain(expected);
    expect(dry.stderr.match(/^warning: /gm)).toHaveLength(4);
    expect(dry.stdout).toContain('Dry run: 6 entries would be imported, 0 skipped, 0 failed');

    const res = await runCli(args, as(olivia.token));
    expect(res.code).toBe(0);
    expect(res.stderr).toContain(expected);
    expect(res.stdout).toContain('Imported 6 entries, skipped 0, failed 0.');
    expect(await entries()).toHaveLength(6);
    expect(await allRates()).toEqual(before);
  });

  it('says once that rates are not visible to a member, and imports as usual', async () => {
    await putRate(`/api/v1/workspaces/${ws}/rates`, 10000, '2026-01-01');
    const file = join(dir, 'ana-rates.csv');
    const lines = readFileSync(CLOCKIFY_RATES, 'utf8').split('\n');
    writeFileSync(file, [lines[0], lines[1], lines[4]].join('\n'));
    const res = await runCli(['import', 'clockify', file, '-w', ws, '--timezone', 'Europe/Berlin'], as(ana.token));
    expect(res.code).toBe(0);
    expect(res.stderr.match(/^note: .*$/gm)).toEqual(['note: rates are not visible to you; rate and amount columns were not compared']);
    expect(res.stderr).not.toContain('warning:');
    expect(res.stdout).toContain('Imported 2 entries, skipped 0, failed 0.');
  });
});

describe('chronicle report render', () => {
  it('renders a preview to stdout or a file, by template name or id', async () => {
    await t.post(
      '/api/v1/time-entries',
      { workspaceId: ws, projectId: website, start: '2026-10-05T09:00:00Z', minutes: 75, description: 'Render me' },
      ana.token,
    );
    const args = ['report', 'render', '--template', 'Timesheet', '--workspace', ws, '--from', '2026-10-01', '--to', '2026-10-31'];
    const out = await runCli(args, as(ana.token));
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('Render me');
    const file = join(dir, 'report.md');
    const toFile = await runCli([...args, '--out', file], as(ana.token));
    expect(toFile.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('Render me');
    expect(toFile.stderr).toContain(`Wrote ${file}: 2026-10-01 to 2026-10-31, 75 minutes.`);
    const preset = await runCli(['report', 'render', '-t', 'Timesheet', '-w', ws, '--preset', 'last_month'], as(ana.token));
    expect(preset.code).toBe(0);
  });

  it('exits 1 with the server’s reason for a workspace the caller is not in, 2 without a date range', async () => {
    const outsider = await runCli(['report', 'render', '-t', 'Timesheet', '-w', 'no-such', '--preset', 'last_month'], as(ana.token));
    expect(outsider.code).toBe(1);
    expect(outsider.stderr).toMatch(/^chronicle: 4\d\d [A-Z][a-z]+/m);
    const noRange = await runCli(['report', 'render', '-t', 'Timesheet', '-w', ws], as(ana.token));
    expect(noRange.code).toBe(2);
    const badPreset = await runCli(['report', 'render', '-t', 'Timesheet', '-w', ws, '--preset', 'someday'], as(ana.token));
    expect(badPreset.code).toBe(2);
    expect(badPreset.stderr).toContain('Allowed choices are today, yesterday');
  });
});

describe('chronicle users create and tokens create', () => {
  it('creates a user and a token that works', async () => {
    const created = await runCli(
      ['users', 'create', '--name', 'Chen Wei', '--email', 'chen@example.com', '--timezone', 'Asia/Shanghai'],
      as(ADMIN_TOKEN),
    );
    expect(created.code).toBe(0);
    const id = created.stdout.trim();
    expect((await t.get(`/api/v1/users/${id}`)).body).toMatchObject({ name: 'Chen Wei', timezone: 'Asia/Shanghai' });

    const token = await runCli(['tokens', 'create', '--user', id, '--scopes', 'read', '--name', 'ci'], as(ADMIN_TOKEN));
    expect(token.code).toBe(0);
    const me = await t.get('/api/v1/me', token.stdout.trim());
    expect(me.body.id).toBe(id);
    expect((await t.post('/api/v1/workspaces', { name: 'x' }, token.stdout.trim())).status).toBe(403);

    const own = await runCli(['tokens', 'create', '--json'], as(ana.token));
    expect(JSON.parse(own.stdout)).toMatchObject({ scopes: ['read', 'write'], token: expect.any(String) });
  });

  it('exits 1 when the server refuses (a duplicate e-mail, a non-admin), 2 for bad usage', async () => {
    const duplicate = await runCli(['users', 'create', '--name', 'Again', '--email', 'ana@example.com'], as(ADMIN_TOKEN));
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('409');
    const notAdmin = await runCli(['users', 'create', '--name', 'X', '--email', 'x@example.com'], as(ana.token));
    expect(notAdmin.code).toBe(1);
    expect(notAdmin.stderr).toContain('403');
    const readOnly = await runCli(['tokens', 'create'], as(await readOnlyToken(t, ana)));
    expect(readOnly.code).toBe(1);
    expect((await runCli(['users', 'create', '--name', 'X'], as(ADMIN_TOKEN))).code).toBe(2);
    expect((await runCli(['tokens', 'create', '--scopes', 'admin'], as(ADMIN_TOKEN))).code).toBe(2);
  });

  it('needs CHRONICLE_URL and CHRONICLE_TOKEN (exit 2), and says when the server cannot be reached (exit 1)', async () => {
    // As a process: the exit codes are the process's own.
    const noEnv = await runCliProcess(['tokens', 'create']);
    expect(noEnv.code).toBe(2);
    expect(noEnv.stderr).toContain('CHRONICLE_URL is not set');
    const badToken = await runCli(['tokens', 'create'], as('not-a-token'));
    expect(badToken.code).toBe(1);
    expect(badToken.stderr).toContain('401');
    const unreachable = await runCliProcess(['tokens', 'create'], { CHRONICLE_URL: 'http://127.0.0.1:1', CHRONICLE_TOKEN: 'x' });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('Cannot reach http://127.0.0.1:1');
  });
});

describe('chronicle help and migrate', () => {
  it('prints help for every command and exits 0; unknown commands and options exit 2', async () => {
    for (const args of [
      [],
      ['import'],
      ['import', 'toggl'],
      ['import', 'clockify'],
      ['report', 'render'],
      ['users', 'create'],
      ['tokens', 'create'],
      ['migrate'],
    ]) {
      const res = await runCli([...args, '--help']);
      expect(res.code, args.join(' ')).toBe(0);
      expect(res.stdout, args.join(' ')).toContain('Usage: chronicle');
    }
    expect((await runCli(['nonsense'])).code).toBe(2);
    expect((await runCli(['import', 'toggl', TOGGL, '--workspace', 'x', '--bogus'])).code).toBe(2);
    expect((await runCli(['import', 'toggl', TOGGL])).code).toBe(2);
  });

  it('runs through the package bin', async () => {
    const res = await runCliProcess(['--help'], {}, 'bin/chronicle.js');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Usage: chronicle');
  });

  it('migrates the database the environment names, without a server', async () => {
    if (t.database.kind === 'postgres') {
      // The worker's own database is migrated already: migrate again is a no-op that succeeds.
      const current = rowsOf<{ url: string }>(await t.database.db.execute(sql`select current_database() as url`))[0]!.url;
      const base = new URL(process.env.TEST_DATABASE_URL!);
      base.pathname = `/${current}`;
      const res = await runCli(['migrate'], { DATABASE_URL: base.toString() });
      expect(res.stdout).toContain('Migrations applied (postgres).');
      expect(res.code).toBe(0);
      return;
    }
    // A data directory initialised already (data-dir.test.ts initialises new ones): migrate applies
    // every migration to it.
    const dataDir = dataDirFromImage('blank', 'chronicle-cli-data-');
    const res = await runCli(['migrate'], { DATA_DIR: dataDir }).finally(() => {
      rmSync(dataDir, { recursive: true, force: true });
    });
    expect(res.stderr).toBe('');
    expect(res.stdout).toContain('Migrations applied (pglite).');
    expect(res.code).toBe(0);
    const bad = await runCli(['migrate'], { DATABASE_URL: 'mysql://nope' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('DATABASE_URL');
  });
});
