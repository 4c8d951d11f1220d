import { describe, expect, it } from 'vitest';
import {
  buildRenderContext,
  readsEntries,
  RENDER_CONTEXT_VERSION,
  type EntryTuple,
  type RenderInput,
} from '../../src/render/render-context.js';
import { renderTemplate, variablePaths } from '../../src/render/template-engine.js';
import { entryTuple, type TestEntry } from '../helpers/entry-tuples.js';

const workspace = { id: 'w1', name: 'Acme' };
const ada = { id: 'u1', name: 'Ada' };
const bob = { id: 'u2', name: 'Bob' };
const web = { id: 'p1', name: 'Website' };

function entry(id: string, start: string, minutes: number, extra: Partial<TestEntry> = {}): EntryTuple {
  return entryTuple(
    { id, start, minutes, description: `work ${id}`, tags: [], project: web, user: ada, workspace, ...extra },
    'Europe/Paris',
  );
}

function input(overrides: Partial<RenderInput> = {}): RenderInput {
  return {
    report: { id: 'r1', name: 'March', note: 'A *note*', version: 3 },
    period: { from: '2026-03-09', to: '2026-03-15', preset: 'last_week' },
    timezone: 'Europe/Paris',
    generatedAt: '2026-03-16T08:05:00.000Z',
    owner: { id: 'u1', name: 'Ada', email: 'ada@example.com' },
    workspaces: [workspace],
    template: { id: 't1', name: 'Timesheet' },
    entries: [
      // 00:30 on Monday in Paris, still Sunday in UTC.
      entry('e1', '2026-03-08T23:30:00.000Z', 60, { tags: ['ops', 'web'] }),
      entry('e2', '2026-03-09T09:00:00.000Z', 30, { project: null, user: bob }),
      entry('e3', '2026-03-11T13:15:00.000Z', 90, { tags: ['ops'] }),
    ],
    aggregates: {
      totalMinutes: 180,
      entryCount: 3,
      byProject: [
        { id: null, name: 'No project', minutes: 30, entryCount: 1 },
        { id: 'p1', name: 'Website', minutes: 150, entryCount: 2 },
      ],
      byUser: [
        { id: 'u2', name: 'Bob', minutes: 30, entryCount: 1 },
        { id: 'u1', name: 'Ada', minutes: 150, entryCount: 2 },
      ],
      byTag: [
        { tag: 'web', minutes: 60, entryCount: 1 },
        { tag: 'ops', minutes: 150, entryCount: 2 },
      ],
      byDay: [
        { date: '2026-03-11', minutes: 90, entryCount: 1 },
        { date: '2026-03-09', minutes: 90, entryCount: 2 },
      ],
    },
    ...overrides,
  };
}

/** The billing fields (billing.md §5) of a render without billable time or money. */
const NO_BILLING = { billableMinutes: 0, nonBillableMinutes: 0, amounts: null };
const DEFAULT_OPTIONS = { rounding: { mode: 'none' }, hideAmounts: false, billable: 'all', durationFormat: 'hm', locale: 'en' };

describe('buildRenderContext', () => {
  const context = buildRenderContext(input()) as Record<string, any>;

  it('describes the report, its period and when it was generated in the owner timezone', () => {
    expect(context.contextVersion).toBe(RENDER_CONTEXT_VERSION);
    expect(context.report).toEqual({
      id: 'r1',
      name: 'March',
      note: 'A *note*',
      version: 3,
      period: { from: '2026-03-09', to: '2026-03-15', preset: 'last_week', days: 7 },
      timezone: 'Europe/Paris',
      generatedAt: '2026-03-16T08:05:00.000Z',
      generatedAtLocal: '2026-03-16 09:05',
      options: DEFAULT_OPTIONS,
      showsMoney: false,
    });
    expect(context.owner).toEqual({ id: 'u1', name: 'Ada', email: 'ada@example.com' });
    expect(context.workspaces).toEqual([workspace]);
    expect(context.template).toEqual({ id: 't1', name: 'Timesheet' });
  });

  it('gives each entry its date and time in the owner timezone', () => {
    expect(context.entries[0]).toEqual({
      id: 'e1',
      date: '2026-03-09',
      time: '00:30',
      start: '2026-03-08T23:30:00.000Z',
      minutes: 60,
      description: 'work e1',
      tags: ['ops', 'web'],
      project: { id: 'p1', name: 'Website' },
      user: { id: 'u1', name: 'Ada' },
      workspace: { id: 'w1', name: 'Acme' },
      client: null,
      billable: false,
      billableMinutes: 0,
      rate: null,
      amount: null,
    });
    expect(context.entries[1].project).toBeNull();
    expect(context.entries.map((e: { id: string }) => e.id)).toEqual(['e1', 'e2', 'e3']);
  });

  it('sums totals with hours as display text', () => {
    expect(context.totals).toEqual({ minutes: 180, entryCount: 3, hours: '3.00', billableHours: '0.00', ...NO_BILLING });
  });

  it('orders project, user and tag groups by minutes, then name', () => {
    expect(context.groups.byProject).toEqual([
      { id: 'p1', name: 'Website', client: null, minutes: 150, entryCount: 2, hours: '2.50', share: '83.3', ...NO_BILLING, lines: [] },
      { id: null, name: 'No project', client: null, minutes: 30, entryCount: 1, hours: '0.50', share: '16.7', ...NO_BILLING, lines: [] },
    ]);
    expect(context.groups.byUser.map((g: { name: string }) => g.name)).toEqual(['Ada', 'Bob']);
    expect(context.groups.byTag).toEqual([
      { tag: 'ops', minutes: 150, entryCount: 2, hours: '2.50', share: '83.3', ...NO_BILLING },
      { tag: 'web', minutes: 60, entryCount: 1, hours: '1.00', share: '33.3', ...NO_BILLING },
    ]);
    const tied = buildRenderContext(
      input({
        aggregates: {
          ...input().aggregates,
          byUser: [
            { id: 'u3', name: 'carol', minutes: 10, entryCount: 1 },
            { id: 'u2', name: 'Bob', minutes: 10, entryCount: 1 },
            { id: 'u1', name: 'Ada', minutes: 10, entryCount: 1 },
          ],
        },
      }),
    ) as Record<string, any>;
    expect(tied.groups.byUser.map((g: { name: string }) => g.name)).toEqual(['Ada', 'Bob', 'carol']);
  });

  it('lists days in calendar order, each with its entries', () => {
    const days = context.groups.byDay as { date: string; weekday: string; minutes: number; entries: { id: string }[] }[];
    expect(days.map((d) => [d.date, d.weekday, d.minutes, d.entries.map((e) => e.id)])).toEqual([
      ['2026-03-09', 'Monday', 90, ['e1', 'e2']],
      ['2026-03-11', 'Wednesday', 90, ['e3']],
    ]);
    expect(days[0]).toMatchObject({ entryCount: 2, hours: '1.50', share: '50.0' });
  });

  it('still lists a day the aggregates missed, so no entry drops out of a timesheet', () => {
    const partial = buildRenderContext(
      input({ aggregates: { ...input().aggregates, byDay: [{ date: '2026-03-11', minutes: 90, entryCount: 1 }] } }),
    ) as Record<string, any>;
    expect(partial.groups.byDay.map((d: { date: string; minutes: number }) => [d.date, d.minutes])).toEqual([
      ['2026-03-09', 90],
      ['2026-03-11', 90],
    ]);
  });

  it('handles an empty period', () => {
    const empty = buildRenderContext(
      input({
        report: { id: null, name: 'Preview', note: null, version: 1 },
        entries: [],
        aggregates: { totalMinutes: 0, entryCount: 0, byProject: [], byUser: [], byTag: [], byDay: [] },
      }),
    ) as Record<string, any>;
    expect(empty.report.id).toBeNull();
    expect(empty.report.note).toBeNull();
    expect(empty.totals).toEqual({ minutes: 0, entryCount: 0, hours: '0.00', billableHours: '0.00', ...NO_BILLING });
    expect(empty.groups).toEqual({ byClient: [], byProject: [], byUser: [], byTag: [], byDay: [] });
  });

  it('holds only plain data, copied from the input', () => {
    const source = input();
    const built = buildRenderContext(source);
    source.entries![0]![6].push('mutated');
    source.workspaces[0]!.name = 'mutated';
    expect(JSON.stringify(built)).not.toContain('mutated');
    expect(JSON.parse(JSON.stringify(built))).toEqual(built);
    const visit = (value: unknown): void => {
      if (typeof value !== 'object' || value === null) return;
      expect([Object.prototype, Array.prototype]).toContain(Object.getPrototypeOf(value));
      Object.values(value).forEach(visit);
    };
    visit(built);
  });

  it('is what templates see', async () => {
    const source = [
      '{{ report.name }} v{{ report.version }} {{ report.period.days }}d',
      '{% for day in groups.byDay %}{{ day.date }}:{% for e in day.entries %} {{ e.time }} {{ e.project.name | default: "-" }}{% endfor %};{% endfor %}',
      '{{ groups.byProject.first.name }} {{ groups.byProject.first.share }}% {{ totals.minutes | duration }}',
    ].join('\n');
    expect(await renderTemplate(source, context)).toBe(
      'March v3 7d\n2026-03-09: 00:30 Website 10:00 -;2026-03-11: 14:15 Website;\nWebsite 83.3% 3h 00m',
    );
  });
});

describe('readsEntries', () => {
  it.each([
    ['{{ entries.size }}', true],
    ['{% for day in groups.byDay %}{% for e in day.entries %}{{ e.id }}{% endfor %}{% endfor %}', true],
    ['{% for day in groups.byDay %}{{ day.minutes }}{% endfor %}', true],
    ['{% assign g = groups %}{{ g.byProject.first.name }}', true],
    ['{{ groups[key] }}', true],
    [
      '{{ totals.minutes }} {% for g in groups.byProject %}{{ g.name }}{% endfor %}{{ groups.byUser.size }}{{ groups.byTag.first.tag }}',
      false,
    ],
    ['{{ report.name }}', false],
    ['{{ groups.byDay.size }} {{ totals.entryCount }}', false],
    ['{{ groups.byDay.first.entries.size }}', true],
    ['{{ groups.byDay[0].entries }}', true],
    ['{{ groups.byDay | size }}', true],
    ['{% capture x %}{{ owner.name }}{% endcapture %}{{ x }}', false],
  ])('%s -> %s', (source, expected) => {
    expect(readsEntries(variablePaths(source))).toBe(expected);
  });

  it('renders entry-free templates the same without entries', async () => {
    const source = '{{ totals.minutes }} {{ groups.byProject.first.name }} {{ entries.size }} {{ groups.byDay.size }}';
    expect(await renderTemplate(source, buildRenderContext(input({ entries: null })))).toBe('180 Website 0 2');
  });
});
