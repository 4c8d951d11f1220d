/**
 * Properties of the money a render computes (billing.md §1-§3), checked against the real render
 * statement on the engine under test: for random rates at the four levels with effective dates
 * crossing the period (one of them changing on a day that starts at a different instant in each
 * user's far time zone), random entries and every rounding mode and step,
 *
 * - each entry's rate is the one rate-for.ts (the rule written out in TypeScript) gives,
 * - its billable minutes are its minutes rounded as the mode says, in integers, and `down` never
 *   bills more than was tracked,
 * - its amount is round_half_up(billable minutes x rate / 60), computed here with BigInt,
 * - every total (report, client, project, user, day, tag) is the sum of its rows, per currency,
 *
 * and rounding itself is idempotent and monotonic.
 */
import fc from 'fast-check';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rates, timeEntries } from '../../src/db/schema.js';
import { rowsOf } from '../../src/db/rows.js';
import { newId } from '../../src/lib/ids.js';
import { rateFor, type RateEntry } from '../../packages/money/src/index.js';
import { loadRenderData, roundedMinutes, type MinuteRounding, type RateTable } from '../../src/repositories/report-data.repository.js';
import type { Db } from '../../src/db/database.js';
import { addMember, addProjectMember, newProject, newWorkspace } from '../helpers/factories.js';
import { newTemplate } from '../helpers/report-factories.js';
import { seedEntries } from '../helpers/seed.js';
import { buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';

let t: TestContext;
let owner: TestUser;
let people: (TestUser & { timezone: string })[];
let workspaceId: string;
let projectIds: string[];
let template: string;

/** Far zones on both sides of the date line, and one whose midnight a DST change skips. */
const ZONES = ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'America/Santiago'];

/** One line per entry, group and total: `kind key billable-minutes amount-or-dash ...`. */
const DUMP = `{% for e in entries %}E {{ e.description }} {{ e.billableMinutes }} {% if e.rate %}{{ e.rate.minor }}{% else %}-{% endif %} {% if e.amount %}{{ e.amount.minor }}{% else %}-{% endif %}
{% endfor %}T all {{ totals.billableMinutes }} {% for a in totals.amounts %}{{ a.minor }}{% endfor %}
{% for g in groups.byProject %}G {{ g.id | default: "none" }} {{ g.billableMinutes }} {% for a in g.amounts %}{{ a.minor }}{% endfor %}
{% endfor %}{% for g in groups.byUser %}G {{ g.id }} {{ g.billableMinutes }} {% for a in g.amounts %}{{ a.minor }}{% endfor %}
{% endfor %}{% for g in groups.byDay %}G {{ g.date }} {{ g.billableMinutes }} {% for a in g.amounts %}{{ a.minor }}{% endfor %}
{% endfor %}{% for g in groups.byTag %}G #{{ g.tag }} {{ g.billableMinutes }} {% for a in g.amounts %}{{ a.minor }}{% endfor %}
{% endfor %}{% for g in groups.byClient %}G client {{ g.billableMinutes }} {% for a in g.amounts %}{{ a.minor }}{% endfor %}
{% endfor %}`;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await newUser(t, { timezone: 'UTC' });
  const workspace = await newWorkspace(t, owner);
  workspaceId = workspace.id;
  people = [];
  for (const timezone of ZONES) {
    const user = await newUser(t, { timezone });
    await addMember(t, workspaceId, user, 'member', owner.token);
    people.push({ ...user, timezone });
  }
  projectIds = [(await newProject(t, workspaceId, owner.token)).id, (await newProject(t, workspaceId, owner.token)).id];
  for (const projectId of projectIds) for (const person of people) await addProjectMember(t, projectId, person.id, owner.token);
  template = await newTemplate(t, DUMP);
});
afterAll(() => t.close());

/** The oracle's rounding, in BigInt: no floating point anywhere. */
function roundOracle(minutes: bigint, rounding: MinuteRounding): bigint {
  if (rounding.mode === 'none') return minutes;
  const step = BigInt(rounding.minutes);
  if (rounding.mode === 'up') return ((minutes + step - 1n) / step) * step;
  if (rounding.mode === 'down') return (minutes / step) * step;
  return ((2n * minutes + step) / (2n * step)) * step;
}

const roundingArb: fc.Arbitrary<MinuteRounding> = fc.oneof(
  fc.constant({ mode: 'none' as const }),
  fc.record({
    mode: fc.constantFrom('up' as const, 'down' as const, 'nearest' as const),
    minutes: fc.constantFrom(1, 5, 6, 10, 15, 30, 60),
  }),
);

/** Dates around the period, the 1st of November most often: a change there starts at a different instant in each zone. */
const dateArb = fc.oneof(
  fc.constant('2026-11-01'),
  fc.integer({ min: 0, max: 14 }).map((d) => new Date(Date.UTC(2026, 9, 25 + d)).toISOString().slice(0, 10)),
);

const rateArb = fc.record({
  level: fc.constantFrom('project_member', 'project', 'workspace_member', 'workspace'),
  project: fc.integer({ min: 0, max: 1 }),
  person: fc.integer({ min: 0, max: 2 }),
  effectiveFrom: dateArb,
  minor: fc.option(fc.integer({ min: 0, max: 100_000_000 }), { freq: 5 }),
});

const entryArb = fc.record({
  person: fc.integer({ min: 0, max: 2 }),
  project: fc.option(fc.integer({ min: 0, max: 1 }), { freq: 4 }),
  // Instants from 2026-10-30 to 2026-11-03 UTC, so the 1st begins inside the window in every zone.
  offsetMinutes: fc.integer({ min: 0, max: 5 * 24 * 60 }),
  minutes: fc.integer({ min: 1, max: 1440 }),
  billable: fc.boolean(),
  tag: fc.constantFrom('a', 'b', null),
});

describe('money in a render, for random rates, entries and rounding', () => {
  it('prices every entry by the rate rule and rounding, and every total is the sum of its rows', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(rateArb, { maxLength: 12 }),
        fc.array(entryArb, { minLength: 1, maxLength: 30 }),
        roundingArb,
        async (rateSpecs, entrySpecs, rounding) => {
          await t.database.db.delete(timeEntries).where(sql`${timeEntries.workspaceId} = ${workspaceId}`);
          await t.database.db.delete(rates).where(sql`${rates.workspaceId} = ${workspaceId}`);

          // One row per level and date, as the table's key allows.
          const byKey = new Map<string, RateEntry & { level: string }>();
          for (const r of rateSpecs) {
            const projectId = r.level.startsWith('project') ? projectIds[r.project]! : null;
            const userId = r.level.endsWith('member') ? people[r.person]!.id : null;
            byKey.set(`${projectId}|${userId}|${r.effectiveFrom}`, {
              level: r.level,
              projectId,
              userId,
              effectiveFrom: r.effectiveFrom,
              hourly: r.minor === null ? null : { currency: 'EUR', minor: r.minor },
            });
          }
          const rateRows = [...byKey.values()];
          if (rateRows.length > 0) {
            await t.database.db.insert(rates).values(
              rateRows.map((r) => ({
                id: newId(),
                workspaceId,
                projectId: r.projectId,
                userId: r.userId,
                level: r.level as 'project',
                effectiveFrom: r.effectiveFrom,
                currency: 'EUR',
                minor: r.hourly?.minor ?? null,
              })),
            );
          }
          const base = Date.UTC(2026, 9, 30);
          const entries = entrySpecs.map((e, i) => ({
            key: `e${i}`,
            person: people[e.person]!,
            projectId: e.project === null ? null : projectIds[e.project]!,
            start: new Date(base + e.offsetMinutes * 60_000),
            minutes: e.minutes,
            billable: e.billable,
            tag: e.tag,
          }));
          await seedEntries(
            t,
            entries.map((e) => ({
              workspaceId,
              userId: e.person.id,
              projectId: e.projectId,
              start: e.start.toISOString(),
              minutes: e.minutes,
              description: e.key,
              billable: e.billable,
              tags: e.tag === null ? [] : [e.tag],
            })),
          );

          const res = await t.post(
            '/api/v1/reports/preview',
            {
              name: 'P',
              templateId: template,
              filters: {
                workspaceIds: [workspaceId],
                dateRange: { from: '2026-10-01', to: '2026-11-30' },
                userIds: people.map((p) => p.id),
              },
              options: { rounding },
            },
            owner.token,
          );
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          const lines = (res.body.renderedMarkdown as string).split('\n');

          // Each entry, against the oracle.
          const expected = new Map<string, { billable: bigint; amount: bigint | null; rate: number | null }>();
          for (const e of entries) {
            const rate = rateFor({ start: e.start, userId: e.person.id, projectId: e.projectId, timezone: e.person.timezone }, rateRows);
            const billable = e.billable ? roundOracle(BigInt(e.minutes), rounding) : 0n;
            const amount = e.billable && rate ? (2n * billable * BigInt(rate.minor) + 60n) / 120n : null;
            expected.set(e.key, { billable, amount, rate: rate?.minor ?? null });
          }
          const got = new Map(
            lines
              .filter((l) => l.startsWith('E '))
              .map((l) => {
                const [, key, billable, rate, amount] = l.trim().split(' ');
                return [
                  key!,
                  {
                    billable: BigInt(billable!),
                    rate: rate === '-' ? null : Number(rate),
                    amount: amount === '-' ? null : BigInt(amount!),
                  },
                ];
              }),
          );
          expect(got).toEqual(expected);

          for (const e of entries) {
            const billable = expected.get(e.key)!.billable;
            if (!e.billable) continue;
            if (rounding.mode === 'down') expect(billable <= BigInt(e.minutes)).toBe(true);
            if (rounding.mode === 'up') expect(billable >= BigInt(e.minutes)).toBe(true);
            if (rounding.mode !== 'none') expect(billable % BigInt(rounding.minutes)).toBe(0n);
          }

          // Every total, against the sum of its rows.
          const sumOf = (keys: (e: (typeof entries)[number]) => string[]) => {
            const sums = new Map<string, { billable: bigint; amount: bigint; priced: boolean }>();
            for (const e of entries) {
              const x = expected.get(e.key)!;
              for (const k of keys(e)) {
                const s = sums.get(k) ?? { billable: 0n, amount: 0n, priced: false };
                s.billable += x.billable;
                if (x.amount !== null) {
                  s.amount += x.amount;
                  s.priced = true;
                }
                sums.set(k, s);
              }
            }
            return sums;
          };
          const dayIn = (d: Date) => d.toISOString().slice(0, 10); // the owner's zone is UTC
          const sums = sumOf((e) => [
            'all',
            e.projectId ?? 'none',
            e.person.id,
            dayIn(e.start),
            ...(e.tag === null ? [] : [`#${e.tag}`]),
            'client',
          ]);
          const totals = new Map(
            lines
              .filter((l) => l.startsWith('T ') || l.startsWith('G '))
              .map((l) => {
                const [, key, billable, amount] = l.trimEnd().split(' ');
                return [key!, { billable: BigInt(billable!), amount: amount ? BigInt(amount) : 0n, priced: Boolean(amount) }];
              }),
          );
          expect(totals).toEqual(sums);
        },
      ),
      { numRuns: 20 },
    );
  });

  it('rounds in integers, idempotently and monotonically, as the statement does', async () => {
    await fc.assert(
      fc.asyncProperty(roundingArb, fc.integer({ min: 0, max: 1440 }), fc.integer({ min: 0, max: 1440 }), async (rounding, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const once = roundedMinutes(sql`${lo}::int`, rounding);
        const result = await t.database.db.execute(sql`select ${once} as lo, ${roundedMinutes(sql`(${once})`, rounding)} as twice,
            ${roundedMinutes(sql`${hi}::int`, rounding)} as hi`);
        const [row] = rowsOf<{ lo: number; twice: number; hi: number }>(result);
        expect(BigInt(row!.lo)).toBe(roundOracle(BigInt(lo), rounding));
        expect(row!.twice).toBe(row!.lo);
        expect(row!.lo).toBeLessThanOrEqual(row!.hi);
        if (rounding.mode === 'down') expect(row!.lo).toBeLessThanOrEqual(lo);
      }),
      { numRuns: 100 },
    );
  });

  it("looks each entry's rate up once, however many of its columns name it", async () => {
    // The statement as a render runs it, with a table of two users, two projects and a rate change.
    const table: RateTable = {
      workspaces: [workspaceId],
      users: people.slice(0, 2).map((p) => p.id),
      projects: projectIds,
      thresholds: ['2026-01-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
      currencies: Array.from({ length: 2 * 3 * 3 }, (_, i) => (i % 3 === 0 ? null : 'EUR')),
      minors: Array.from({ length: 2 * 3 * 3 }, (_, i) => (i % 3 === 0 ? null : 9_000 + i)),
    };
    let statement: SQL | null = null;
    const capture = { execute: (query: SQL) => ((statement = query), t.database.db.execute(query)) } as unknown as Db;
    await loadRenderData(
      capture,
      {
        ownerUserId: owner.id,
        workspaceIds: [workspaceId],
        userIds: table.users,
        start: new Date('2026-01-01T00:00:00Z'),
        end: new Date('2026-12-31T00:00:00Z'),
        timezone: 'UTC',
      },
      { withEntries: true, maxEntries: 1_000, maxBytes: 1_000_000, money: { rounding: { mode: 'up', minutes: 15 }, rates: table } },
    );
    const plan = rowsOf<{ 'QUERY PLAN': string }>(await t.database.db.execute(sql`explain (verbose, costs off) ${statement!}`))
      .map((row) => row['QUERY PLAN'])
      .join('\n');
    // PostgreSQL copies a flattened subquery's expressions to every column that names them: the
    // amount, its currency and its rate would look the cell up seven times per entry.
    expect(plan.match(/width_bucket\(/g)).toHaveLength(1);
    expect(plan.match(/array_position\(/g)).toHaveLength(2);
  });
});
