/**
 * The direct evaluation of simple expressions (src/render/liquid-fast-path.ts) against LiquidJS's
 * own: every built-in template over money, hidden money and no entries, a table of expressions in
 * every position a Value takes (output, if, unless, case, assign, filter arguments), and random
 * paths and filters over random data. Each pair must print the same text or fail with the same
 * message.
 */
import fc from 'fast-check';
import { Liquid } from '../../src/render/liquid.js';
import { describe, expect, it } from 'vitest';
import { BUILTIN_TEMPLATES } from '../../src/render/builtin-templates.js';
import { ChartTag } from '../../src/render/chart-tag.js';
import { accelerate } from '../../src/render/liquid-fast-path.js';
import { buildRenderContext, type EntryTuple, type RenderAggregates, type RenderInput } from '../../src/render/render-context.js';
import { limitsFor, renderTemplate, renderTemplateByLiquidJs, type RenderFormat } from '../../src/render/template-engine.js';

type Outcome = { text: string } | { error: string };

async function outcome(render: () => Promise<string>): Promise<Outcome> {
  try {
    return { text: await render() };
  } catch (error) {
    return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/** The render both ways; returns the direct one after checking LiquidJS agrees. */
async function bothWays(source: string, context: object, format?: RenderFormat): Promise<Outcome> {
  const limits = limitsFor(1_000);
  const direct = await outcome(() => renderTemplate(source, context, limits, format));
  const reference = await outcome(() => renderTemplateByLiquidJs(source, context, limits, format));
  expect({ source, direct }).toEqual({ source, direct: reference });
  return direct;
}

const PEOPLE = [
  { id: 'u1', name: 'Ana Souza' },
  { id: 'u2', name: 'Ben | <b>Okafor</b>' },
  { id: 'u3', name: 'Chloé *Martin*' },
];
const PROJECTS = [{ id: 'p1', name: 'Website [relaunch](javascript:x)' }, { id: 'p2', name: 'Mobile app' }, null];

/** A month of three people's entries, three in four billable, with or without money shown. */
function monthInput(money: boolean, count = 120): RenderInput {
  const entries: EntryTuple[] = [];
  const byDay = new Map<string, RenderAggregates['byDay'][number]>();
  let minutes = 0;
  let billableMinutes = 0;
  let amount = 0;
  for (let i = 0; i < count; i++) {
    const date = `2026-11-${String(1 + (i % 28)).padStart(2, '0')}`;
    const spent = 15 + ((i * 37) % 240);
    const billable = i % 4 !== 0;
    const minor = billable && money ? Math.round((spent * 9_500) / 60) : null;
    const person = PEOPLE[i % PEOPLE.length]!;
    const project = PROJECTS[i % PROJECTS.length] ?? null;
    entries.push([
      `e${i}`,
      `${date}T${String(8 + (i % 9)).padStart(2, '0')}:00:00.000Z`,
      date,
      `${String(9 + (i % 9)).padStart(2, '0')}:00`,
      spent,
      i % 5 === 0 ? `Fix | pipes\nand www.evil.example ${i}` : `Work item ${i}`,
      i % 3 === 0 ? ['ops', 'bug|fix'] : [],
      project?.id ?? null,
      person.id,
      'w1',
      billable,
      billable ? spent : 0,
      minor === null ? null : 'EUR',
      minor === null ? null : 9_500,
      minor,
    ]);
    const day = byDay.get(date) ?? { date, minutes: 0, entryCount: 0, billableMinutes: 0, nonBillableMinutes: 0, amounts: [] };
    day.minutes += spent;
    day.entryCount += 1;
    if (billable) day.billableMinutes = (day.billableMinutes ?? 0) + spent;
    else day.nonBillableMinutes = (day.nonBillableMinutes ?? 0) + spent;
    if (minor !== null) day.amounts = [{ currency: 'EUR', minor: (day.amounts?.[0]?.minor ?? 0) + minor }];
    byDay.set(date, day);
    minutes += spent;
    if (billable) billableMinutes += spent;
    if (minor !== null) amount += minor;
  }
  const amounts = money ? [{ currency: 'EUR', minor: amount }] : [];
  return {
    report: { id: 'r1', name: 'November | *report*', note: 'All **good**.', version: 3 },
    period: { from: '2026-11-01', to: '2026-11-30', preset: 'last_month' },
    timezone: 'Europe/Berlin',
    generatedAt: '2026-12-01T08:00:00.000Z',
    owner: { id: 'u1', name: 'Ana Souza', email: 'ana@example.com' },
    workspaces: [{ id: 'w1', name: 'Acme | Studio' }],
    template: { id: 't1', name: 'Built-in' },
    options: {
      rounding: { mode: 'up', minutes: 15 },
      hideAmounts: !money,
      billable: 'all',
      durationFormat: 'hm',
      locale: 'de',
    },
    entries,
    aggregates: {
      totalMinutes: minutes,
      entryCount: count,
      billableMinutes,
      nonBillableMinutes: minutes - billableMinutes,
      amounts,
      moneyVisible: money,
      byClient: [{ id: null, name: 'No client', minutes, entryCount: count, billableMinutes, amounts }],
      byProject: PROJECTS.map((p, i) => ({ id: p?.id ?? null, name: p?.name ?? 'No project', minutes: 100 + i, entryCount: 1, amounts })),
      byUser: PEOPLE.map((p, i) => ({ ...p, minutes: 200 + i, entryCount: 2, billableMinutes: 100, amounts })),
      byTag: [{ tag: 'ops', minutes: 30, entryCount: 1 }],
      byDay: [...byDay.values()],
      lines: PEOPLE.map((p) => ({
        projectId: 'p1',
        userId: p.id,
        billable: true,
        rate: money ? { currency: 'EUR', minor: 9_500 } : null,
        minutes: 120,
        billableMinutes: 120,
        entryCount: 2,
        amount: money ? { currency: 'EUR', minor: 19_000 } : null,
      })),
    },
  };
}

describe('direct evaluation of templates', () => {
  it.each(BUILTIN_TEMPLATES.map((t) => [t.name, t] as const))('renders the built-in %s exactly as LiquidJS does', async (_, template) => {
    const contexts = [
      buildRenderContext(monthInput(true)),
      buildRenderContext(monthInput(false)),
      buildRenderContext({ ...monthInput(false, 0), entries: [] }),
    ];
    for (const context of contexts) {
      for (const format of [
        { locale: 'de', durationFormat: 'hm' },
        { locale: 'en-US', durationFormat: 'decimal' },
      ] as const) {
        const result = await bothWays(template.body, context, format);
        expect(result).toHaveProperty('text');
        await bothWays(template.nameTemplate, context, format);
        await bothWays(template.noteTemplate, context, format);
      }
    }
    // It does take the direct path: the body has simple values to accelerate.
    const liquid = new Liquid();
    liquid.registerTag('chart', ChartTag);
    expect(accelerate(liquid.parse(template.body))).toBeGreaterThan(3);
  });

  const context = {
    n: 3,
    zero: 0,
    text: 'a | b',
    empty: '',
    nothing: null,
    yes: true,
    no: false,
    list: [1, 2, 3],
    words: ['b', 'a', 'c'],
    nested: { list: [{ name: 'x', minutes: 90 }], size: 'own size', first: 'own first', deep: { deeper: { value: 'found' } } },
    amounts: [{ currency: 'EUR', minor: 123_456 }],
    amount: { currency: 'JPY', minor: 1_500 },
    obj: { a: 1, b: 'two' },
  };
  const expressions = [
    'n',
    'zero',
    'text',
    'nothing',
    'missing',
    'missing.deeper.still',
    'nothing.key',
    'obj.a',
    'obj.size',
    'obj["b"]',
    'list.size',
    'list.first',
    'list.last',
    'list[1]',
    'list.length',
    'text.size',
    'text.length',
    'nested.size',
    'nested.first',
    'nested.deep.deeper.value',
    'nested.list.first.name',
    'obj.constructor',
    'obj.__proto__',
    'obj.toString',
    'obj.hasOwnProperty',
    'list.map',
    '"quoted"',
    '42',
    '1.5',
    'true',
    'nil',
    'empty',
    'blank',
    '(1..3)',
    'n > 2',
    'n >= 4',
    'n >= 3',
    'n <= 3',
    'n < 3',
    'zero < n',
    '"a" < "b"',
    'text > "a"',
    'nothing > 1',
    'missing <= 0',
    'text != "x"',
    'yes and 0',
    'no or nil',
    'zero or no',
    'no or zero',
    'text and zero',
    '1 == 1.0',
    'n contains 3',
    'n == 3',
    'n != 3',
    'text contains "b"',
    'words contains "a"',
    'yes and no',
    'yes or no',
    'n > 1 and text contains "a"',
    'empty == ""',
    'list == empty',
    'nothing == nil',
    'missing == blank',
    'n | plus: 2',
    'n | plus: n',
    'n | plus: missing',
    'words | sort | join: ", "',
    'words | join: obj.b',
    'text | md',
    'text | upcase | md',
    'amounts | money',
    'amount | money',
    'nested.list.first.minutes | duration',
    'n | duration',
    'n | hours',
    'text | money',
    'missing | default: "fallback"',
    'no | default: "fallback", allow_false: true',
    '"2026-11-02" | date: "%A %d %B"',
    '"2026-11-02" | date: "long"',
    'list | size',
    'text | truncate: 3',
    'text | split: "|" | first',
    'forloop.index',
  ];

  it('prints, tests, assigns and passes as arguments every kind of expression as LiquidJS does', async () => {
    for (const expression of expressions) {
      await bothWays(`[{{ ${expression} }}]`, context);
      await bothWays(`{% if ${expression} %}yes{% else %}no{% endif %}`, context);
      await bothWays(`{% unless ${expression} %}yes{% endunless %}`, context);
      await bothWays(`{% assign x = ${expression} %}[{{ x }}]`, context);
      await bothWays(`{% case ${expression} %}{% when 3 %}three{% when "a | b", nil %}text or nil{% else %}other{% endcase %}`, context);
      await bothWays(`{% for item in list %}{{ ${expression} }}:{{ item | plus: forloop.index }};{% endfor %}`, context);
    }
  });

  it('follows elsif, else, break and continue inside loops and nested branches as LiquidJS does', async () => {
    const templates = [
      '{% for i in list %}{% if i == 2 %}{% continue %}skipped{{ i }}{% endif %}[{{ i }}]{% endfor %}',
      '{% for i in list %}{% if i == 2 %}{% break %}skipped{% endif %}[{{ i }}]{% endfor %}',
      '{% for i in list %}{% if i > 1 %}{% if i == 3 %}{% break %}{% else %}two{% continue %}{% endif %}{% endif %}[{{ i }}]{% endfor %}after',
      '{% for i in list %}{% unless i == 1 %}{% continue %}{% endunless %}<{{ i }}>{% endfor %}',
      '{% if nothing %}a{% elsif zero %}b{% elsif n > 5 %}c{% else %}d{% endif %}',
      '{% if missing %}a{% elsif empty == "" %}b{% endif %}|{% if no %}x{% endif %}|{% if words.size > 2 %}{{ words | join: "" }}{% endif %}',
      '{% for i in list %}{% for w in words %}{% if w == "a" %}{% break %}{% endif %}{{ i }}{{ w }} {% endfor %}{% endfor %}',
      '{% for i in list %}{% if forloop.first %}first {% elsif forloop.last %} last{% else %} {{ forloop.index }}{% endif %}{% endfor %}',
      '{% for i in list limit: 2 %}{% if i %}{{ i }}{% endif %}{% endfor %}{% for i in list offset: continue %}{{ i }}{% endfor %}',
      '{% capture c %}{% if yes %}{{ text | md }}{% endif %}{% endcapture %}[{{ c }}]',
      '{%- if yes -%}  trimmed  {%- endif -%}|{% if yes %}  kept  {% endif %}',
    ];
    for (const source of templates) expect(await bothWays(source, context)).toHaveProperty('text');
  });

  it('reports a failing filter with the same message and position', async () => {
    const failed = await bothWays('line one\n{{ text | money }}', context);
    expect(failed).toHaveProperty('error');
    expect((failed as { error: string }).error).toMatch(/line 2/);
    expect(await bothWays('{% for i in (1..3) %}{{ i | money }}{% endfor %}', context)).toHaveProperty('error');
  });

  it('agrees with LiquidJS on random paths and filters over random data', async () => {
    const KEYS = ['a', 'b', 'size', 'first', 'last', 'length', 'constructor', '__proto__', 'toString', 'x y', '0'];
    const leaf = fc.oneof(
      fc.integer({ min: -5, max: 5 }),
      fc.constantFrom('', 'a|b', 'text', '2026-11-02'),
      fc.boolean(),
      fc.constant(null),
    );
    const data = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    const path = fc
      .tuple(fc.constantFrom('v', 'w'), fc.array(fc.constantFrom(...KEYS), { maxLength: 3 }))
      .map(([root, keys]) => [root, ...keys.map((key) => (/^[a-z_]\w*$/i.test(key) ? `.${key}` : `["${key}"]`))].join(''));
    const filter = fc.constantFrom(
      '',
      ' | size',
      ' | md',
      ' | default: "d"',
      ' | join: "-"',
      ' | plus: 1',
      ' | duration',
      ' | first',
      ' | upcase',
    );
    const operator = fc.constantFrom(
      '',
      ' == 1',
      ' != ""',
      ' > 0',
      ' >= 0',
      ' < "b"',
      ' <= 1',
      ' contains "a"',
      ' contains 1',
      ' and v',
      ' or w.a',
    );
    await fc.assert(
      fc.asyncProperty(data, data, path, filter, operator, async (v, w, expression, tail, test) => {
        const scope = { v, w };
        await bothWays(`[{{ ${expression}${tail} }}]`, scope);
        await bothWays(`{% if ${expression}${test} %}yes{% else %}no{% endif %}`, scope);
      }),
      { numRuns: 300, seed: 20261129 },
    );
  });
});
