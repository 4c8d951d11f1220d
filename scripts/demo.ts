/**
 * `npm run demo`: Chronicle on a fresh embedded database in a temporary directory, filled through
 * the API with a small distributed team (two workspaces, projects, three months of time), reports
 * from every built-in template, a send with a message, an open and a passcode share link, comments
 * and reactions. Then it keeps serving and prints what to try, until Ctrl-C.
 *
 *   --exit      stop after filling (tests)
 *   --port N    listen on N (default: PORT or 3000, or any free port when that one is taken)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DateTime } from 'luxon';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { generateSecret } from '../src/lib/tokens.js';
import { createChronicleClient, unwrap, type ChronicleClient } from '../packages/client/src/index.js';

const { values: args } = parseArgs({ options: { exit: { type: 'boolean', default: false }, port: { type: 'string' } } });
const say = (line: string) => process.stdout.write(`${line}\n`);
const STEPS = 7;
let step = 0;
const started = Date.now();
const stage = (what: string) => say(`[${++step}/${STEPS}] ${what}${process.env.DEMO_TIMING ? ` (+${Date.now() - started} ms)` : ''}`);

/** A seeded generator, so every demo tells the same story. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(20261123);
/** The value, known to be there (a lookup in the demo's own data). */
function must<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Error(`demo data: no ${what}`);
  return value;
}
const pick = <T>(list: readonly T[]): T => must(list[Math.floor(rand() * list.length)], 'item');

/** The port asked for, or any free one when it is taken. */
function choosePort(preferred: number): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => {
      const any = createServer();
      any.listen(0, '127.0.0.1', () => {
        const address = any.address();
        any.close(() => {
          resolve(typeof address === 'object' && address ? address.port : 0);
        });
      });
    });
    probe.listen(preferred, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        resolve(typeof address === 'object' && address ? address.port : preferred);
      });
    });
  });
}

interface Person {
  key: Key;
  name: string;
  email: string;
  timezone: string;
  id: string;
  token: string;
  api: ChronicleClient;
}

const PEOPLE = [
  { key: 'amara', name: 'Amara Okafor', email: 'amara@northwind.example', timezone: 'Europe/London' },
  { key: 'luis', name: 'Luis Fernández', email: 'luis@northwind.example', timezone: 'Europe/Madrid' },
  { key: 'priya', name: 'Priya Raman', email: 'priya@northwind.example', timezone: 'Asia/Kolkata' },
  { key: 'kenji', name: 'Kenji Watanabe', email: 'kenji@northwind.example', timezone: 'Asia/Tokyo' },
  { key: 'sofia', name: 'Sofia Rossi', email: 'sofia@northwind.example', timezone: 'Europe/Rome' },
  { key: 'daniel', name: 'Daniel Cohen', email: 'daniel@northwind.example', timezone: 'America/New_York' },
] as const;
type Key = (typeof PEOPLE)[number]['key'];

interface ProjectPlan {
  name: string;
  people: Key[];
  tags: string[];
  descriptions: string[];
}

const WORKSPACES: { name: string; owner: Key; admins: Key[]; members: Key[]; share: number; projects: ProjectPlan[] }[] = [
  {
    name: 'Northwind Studio',
    owner: 'amara',
    admins: ['luis'],
    members: ['priya', 'kenji', 'sofia', 'daniel'],
    share: 0.8,
    projects: [
      {
        name: 'Website relaunch',
        people: ['amara', 'luis', 'sofia'],
        tags: ['design', 'frontend', 'review', 'qa'],
        descriptions: [
          'Homepage hero: second design pass',
          'Fix layout shift on the pricing page',
          'Accessibility audit: forms and focus order',
          'Review copy changes with marketing',
          'Implement the new navigation, mobile first',
          'CMS migration: blog posts and redirects',
          'Lighthouse performance fixes (images, fonts)',
          'Cross-browser QA, Safari and Firefox',
        ],
      },
      {
        name: 'Mobile app',
        people: ['kenji', 'sofia', 'daniel'],
        tags: ['ios', 'android', 'review'],
        descriptions: [
          'Offline sync: conflict handling',
          'Push notification settings screen',
          'Fix crash on Android 12 login',
          'App Store screenshots and release notes',
          'Code review: onboarding flow',
          'Dark mode polish, "Settings" and "Profile"',
        ],
      },
      {
        name: 'Data platform',
        people: ['priya', 'daniel', 'kenji'],
        tags: ['data', 'ops', 'incident'],
        descriptions: [
          'Backfill the events table after the schema change',
          'Nightly export DAG: retries and alerting',
          'Investigate late-arriving data from the EU region',
          'dbt model for revenue by region',
          'Query tuning on the reporting replica',
          "Postmortem for Tuesday's ingestion outage",
        ],
      },
      {
        name: 'Support',
        people: ['amara', 'luis', 'priya', 'kenji', 'sofia', 'daniel'],
        tags: ['support', 'customer'],
        descriptions: [
          'Customer call: invoice export question',
          'Triage the support inbox',
          'Reproduce a bug reported by Acme, Inc.',
          'On-call handover',
        ],
      },
    ],
  },
  {
    name: 'Open Source Guild',
    owner: 'priya',
    admins: [],
    members: ['luis', 'kenji', 'daniel', 'amara'],
    share: 0.2,
    projects: [
      {
        name: 'Docs',
        people: ['priya', 'luis', 'kenji'],
        tags: ['docs', 'community'],
        descriptions: [
          'Rewrite the getting-started guide',
          'API reference: the pagination section',
          'Review community pull requests to the docs',
        ],
      },
      {
        name: 'Release tooling',
        people: ['priya', 'daniel'],
        tags: ['ci', 'release'],
        descriptions: ['Automate changelog generation', 'Rotate the signing keys', 'CI cache for faster builds'],
      },
    ],
  },
];
const UNASSIGNED = ['Team meeting', 'Weekly planning', '1:1 with my lead', 'Expenses and admin'];

interface Entry {
  workspaceId: string;
  projectId: string | null;
  userId: string;
  start: string;
  minutes: number;
  description: string;
  tags: string[];
}

/** Weekdays of the last three months, each person's working hours in their own time zone. */
function timeEntries(
  people: Map<Key, Person>,
  workspaces: { id: string; plan: (typeof WORKSPACES)[number]; projects: Map<string, string> }[],
) {
  const byWorkspace = new Map<string, Entry[]>(workspaces.map((w) => [w.id, []]));
  for (const person of people.values()) {
    const today = DateTime.now().setZone(person.timezone).startOf('day');
    const mine = workspaces.filter(
      (w) => w.plan.owner === person.key || w.plan.admins.includes(person.key) || w.plan.members.includes(person.key),
    );
    for (let day = today.minus({ months: 3 }); day < today; day = day.plus({ days: 1 })) {
      if (day.weekday > 5 || rand() < 0.05) continue; // weekends, and the odd day off
      let at = day.set({ hour: 8 + Math.floor(rand() * 2), minute: pick([0, 15, 30, 45]) });
      const end = at.plus({ hours: 6 + rand() * 2.5 });
      while (at < end) {
        const workspace = must(mine.length > 1 && rand() > (mine[0]?.plan.share ?? 1) ? mine[1] : mine[0], 'workspace');
        const projects = workspace.plan.projects.filter((p) => p.people.includes(person.key));
        const minutes = pick([15, 30, 45, 60, 60, 90, 90, 120, 150, 180]);
        const list = must(byWorkspace.get(workspace.id), 'entry list');
        if (rand() < 0.08 || projects.length === 0) {
          list.push({
            workspaceId: workspace.id,
            projectId: null,
            userId: person.id,
            start: must(at.toISO(), 'instant'),
            minutes: Math.min(minutes, 60),
            description: pick(UNASSIGNED),
            tags: ['internal'],
          });
        } else {
          const project = pick(projects);
          const tags = [...new Set([pick(project.tags), ...(rand() < 0.3 ? [pick(project.tags)] : [])])];
          list.push({
            workspaceId: workspace.id,
            projectId: must(workspace.projects.get(project.name), project.name),
            userId: person.id,
            start: must(at.toISO(), 'instant'),
            minutes,
            description: pick(project.descriptions),
            tags,
          });
        }
        at = at.plus({ minutes: minutes + pick([0, 0, 5, 10, 15, 30]) });
        if (at.hour >= 12 && at.hour < 13 && rand() < 0.5) at = at.plus({ minutes: 45 }); // lunch
      }
    }
  }
  return byWorkspace;
}

/**
 * Northwind bills its clients in euros: two clients, their projects billable by default (Support
 * is not), a workspace rate, project rates (the mobile app's went up six weeks ago) and a senior's
 * own rate on the data platform, so the Invoice summary and the timesheet show money.
 */
async function bill(owner: ChronicleClient, workspaceId: string, projects: Map<string, string>): Promise<void> {
  const project = (name: string) => must(projects.get(name), name);
  const client = async (name: string) =>
    (await unwrap(owner.POST('/api/v1/workspaces/{id}/clients', { params: { path: { id: workspaceId } }, body: { name } }))).id;
  const contoso = await client('Contoso Retail');
  const fabrikam = await client('Fabrikam Health');
  for (const [name, clientId] of [
    ['Website relaunch', contoso],
    ['Mobile app', contoso],
    ['Data platform', fabrikam],
  ] as const) {
    await unwrap(
      owner.PATCH('/api/v1/projects/{id}', { params: { path: { id: project(name) } }, body: { clientId, billableByDefault: true } }),
    );
  }
  const eur = (minor: number) => ({ currency: 'EUR', minor });
  const sixWeeksAgo = must(DateTime.now().minus({ weeks: 6 }).toISODate(), 'date');
  await unwrap(
    owner.PUT('/api/v1/workspaces/{id}/rates', {
      params: { path: { id: workspaceId } },
      body: { hourly: eur(9500), effectiveFrom: '2025-01-01' },
    }),
  );
  const projectRate = (name: string, minor: number, effectiveFrom: string) =>
    unwrap(
      owner.PUT('/api/v1/projects/{id}/rates', { params: { path: { id: project(name) } }, body: { hourly: eur(minor), effectiveFrom } }),
    );
  await projectRate('Website relaunch', 12000, '2025-01-01');
  await projectRate('Mobile app', 10500, '2025-01-01');
  await projectRate('Mobile app', 11500, sixWeeksAgo);
}

const dataDir = mkdtempSync(join(tmpdir(), 'chronicle-demo-'));
const port = await choosePort(Number(args.port ?? process.env.PORT ?? 3000));
const adminToken = `chr_${generateSecret(32)}`;
/** Every demo person's password in the web app (the demo's data lives only as long as the demo). */
const WEB_PASSWORD = 'northwind demo password';
const config = loadConfig({
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  PORT: String(port),
  BOOTSTRAP_ADMIN_TOKEN: adminToken,
  LOG_LEVEL: 'warn',
});
/**
 * fetch that waits out a 429 or 503 as a client should (Retry-After, at most 5 s, 5 tries): on a
 * busy machine the server refuses for overload while the demo logs three months of time.
 */
async function patientFetch(request: Request): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(request.clone());
    if ((response.status !== 429 && response.status !== 503) || attempt === 5) return response;
    await response.arrayBuffer();
    const seconds = Math.min(5, Math.max(1, Number(response.headers.get('retry-after')) || 1));
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}

stage(`Starting Chronicle on a fresh embedded database in ${dataDir}`);
const app = await buildApp({ config, logger: false });
const base = await app.listen({ port: config.port, host: config.host });
const cleanUp = async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
};

try {
  const client = (token: string) => createChronicleClient({ baseUrl: base, token, fetch: patientFetch });
  const admin = client(adminToken);
  const anonymous = createChronicleClient({ baseUrl: base, fetch: patientFetch });

  stage('Creating the team: six people in five time zones');
  const people = new Map<Key, Person>();
  for (const p of PEOPLE) {
    const user = await unwrap(admin.POST('/api/v1/users', { body: { name: p.name, email: p.email, timezone: p.timezone } }));
    const token = await unwrap(
      admin.POST('/api/v1/users/{id}/tokens', { params: { path: { id: user.id } }, body: { scopes: ['read', 'write'], name: 'demo' } }),
    );
    people.set(p.key, { ...p, id: user.id, token: token.token, api: client(token.token) });
    // Everyone can sign in to the web app with the one demo password, set as a person would: by their link.
    const link = await unwrap(admin.POST('/api/v1/users/{id}/password-link', { params: { path: { id: user.id } } }));
    const secret = must(link.url.split('#')[1], 'set-password secret');
    await unwrap(anonymous.POST('/api/v1/password-links/redeem', { body: { token: secret, password: WEB_PASSWORD } }));
  }
  const who = (key: Key) => must(people.get(key), key);

  stage('Two workspaces and their projects');
  const workspaces: { id: string; plan: (typeof WORKSPACES)[number]; projects: Map<string, string> }[] = [];
  for (const plan of WORKSPACES) {
    const owner = who(plan.owner).api;
    const ws = await unwrap(owner.POST('/api/v1/workspaces', { body: { name: plan.name } }));
    const member = (key: Key, role: 'admin' | 'member') =>
      unwrap(
        owner.PUT('/api/v1/workspaces/{id}/members/{userId}', { params: { path: { id: ws.id, userId: who(key).id } }, body: { role } }),
      );
    for (const key of plan.admins) await member(key, 'admin');
    for (const key of plan.members) await member(key, 'member');
    const projects = new Map<string, string>();
    for (const project of plan.projects) {
      const created = await unwrap(
        owner.POST('/api/v1/workspaces/{id}/projects', { params: { path: { id: ws.id } }, body: { name: project.name } }),
      );
      projects.set(project.name, created.id);
      for (const key of project.people) {
        await unwrap(owner.PUT('/api/v1/projects/{id}/members/{userId}', { params: { path: { id: created.id, userId: who(key).id } } }));
      }
    }
    if (plan.name === 'Northwind Studio') await bill(owner, ws.id, projects);
    workspaces.push({ id: ws.id, plan, projects });
  }

  const byWorkspace = timeEntries(people, workspaces);
  const total = [...byWorkspace.values()].reduce((n, list) => n + list.length, 0);
  stage(`Logging three months of time: ${total} entries through POST /time-entries/batch`);
  let done = 0;
  for (const w of workspaces) {
    const list = must(byWorkspace.get(w.id), 'entry list');
    for (let i = 0; i < list.length; i += 1000) {
      const batch = list.slice(i, i + 1000);
      await unwrap(who(w.plan.owner).api.POST('/api/v1/time-entries/batch', { body: { entries: batch } }));
      done += batch.length;
      say(`      ${done}/${total} entries`);
    }
  }

  stage('Reports from every built-in template');
  const amara = who('amara');
  const northwind = must(workspaces[0], 'workspace');
  const team = [...people.values()].map((p) => p.id);
  const templates = await unwrap(amara.api.GET('/api/v1/templates'));
  const reports: { id: string; name: string; reportContentId: string }[] = [];
  for (const template of templates.filter((t) => t.builtIn)) {
    const report = await unwrap(
      amara.api.POST('/api/v1/reports', {
        body: {
          name: template.name === 'Timesheet' ? 'Website relaunch timesheet, last month' : `Northwind ${template.name.toLowerCase()}`,
          templateId: template.id,
          filters: {
            workspaceIds: [northwind.id],
            userIds: team,
            dateRange: template.name === 'Weekly status' ? 'last_week' : 'last_month',
            // The timesheet covers the relaunch only, so the people on that project may receive it.
            ...(template.name === 'Timesheet'
              ? {
                  projectIds: [
                    must(northwind.projects.get('Website relaunch'), 'project'),
                    must(northwind.projects.get('Support'), 'project'),
                  ],
                }
              : {}),
          },
          note: template.name === 'Summary' ? 'Numbers for the monthly review. Support time is **not** billable.' : null,
        },
      }),
    );
    reports.push(report);
    say(`      ${report.name}`);
  }

  stage('Sending the timesheet, sharing, discussing');
  const timesheet = must(
    reports.find((r) => r.name.includes('timesheet')),
    'timesheet',
  );
  await unwrap(
    amara.api.POST('/api/v1/reports/{id}/send', {
      params: { path: { id: timesheet.id } },
      body: {
        recipientUserIds: [who('luis').id, who('sofia').id],
        message: "Here is last month's timesheet. Please check your hours before Friday's invoicing run.",
      },
    }),
  );
  const openShare = await unwrap(amara.api.POST('/api/v1/reports/{id}/shares', { params: { path: { id: timesheet.id } }, body: {} }));
  const PASSCODE = 'northwind-demo';
  const summary = reports.find((r) => r.name === 'Northwind summary') ?? timesheet;
  const lockedShare = await unwrap(
    amara.api.POST('/api/v1/reports/{id}/shares', {
      params: { path: { id: summary.id } },
      body: { passcode: PASSCODE, expiresInDays: 30 },
    }),
  );
  const content = timesheet.reportContentId;
  const onContent = { params: { path: { id: content } } };
  const comment = (key: Key, text: string) =>
    unwrap(who(key).api.POST('/api/v1/report-contents/{id}/comments', { ...onContent, body: { body: text } }));
  const question = await comment(
    'luis',
    'Looks right to me. The **Data platform** total is higher than I expected: was the backfill counted twice?',
  );
  await comment('amara', 'No, that was the week of the ingestion outage. See the entries of the 14th.');
  await comment('sofia', 'Mine are correct. Thanks!');
  await unwrap(who('luis').api.PUT('/api/v1/report-contents/{id}/reactions', { ...onContent, body: { emoji: 'rocket' } }));
  await unwrap(who('sofia').api.PUT('/api/v1/report-contents/{id}/reactions', { ...onContent, body: { emoji: '+1' } }));
  await unwrap(
    amara.api.PUT('/api/v1/report-contents/{id}/comments/{commentId}/reactions', {
      params: { path: { id: content, commentId: question.id } },
      body: { emoji: 'eyes' },
    }),
  );

  stage(`Ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const luis = who('luis');
  say('');
  say(`Share page:           ${openShare.url}`);
  say(`Passcode share page:  ${lockedShare.url}   (passcode: ${PASSCODE})`);
  say('');
  say(`Web app:              ${base}/app/   (sign in as ${amara.email}, password: ${WEB_PASSWORD}; or as ${luis.email})`);
  say('');
  say(`Chronicle is running at ${base} (data in ${dataDir}, removed when the demo stops).`);
  say('Try next:');
  say(`  export CHRONICLE_URL=${base} CHRONICLE_TOKEN=${amara.token}   # Amara Okafor, owner of Northwind Studio`);
  say(`  npx chronicle report render --template Summary --workspace ${northwind.id} --preset last_month`);
  say(`  curl -s -H "Authorization: Bearer ${luis.token}" ${base}/api/v1/inbox   # Luis's inbox`);
  say(`  curl -s -H "Authorization: Bearer ${amara.token}" ${base}/api/v1/report-contents/${content}/discussion`);
  say(`  curl -s ${base}/metrics | grep chronicle_`);
  say(`  Admin token: ${adminToken}    API description: ${base}/openapi.json`);
} catch (error) {
  say(`The demo failed: ${(error as Error).message}`);
  await cleanUp();
  process.exit(1);
}

if (args.exit) {
  await cleanUp();
} else {
  say('Press Ctrl-C to stop.');
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void cleanUp().then(() => process.exit(0));
    });
  }
}
