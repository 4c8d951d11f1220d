/**
 * Templates seeded on a fresh installation (docs/api.md "Templates"), written against
 * render context v1 (docs/templates.md). Every user-written string goes through `md`
 * in bodies; name templates produce plain text, so they never use it.
 */
export interface BuiltinTemplate {
  key: string;
  name: string;
  description: string;
  body: string;
  nameTemplate: string;
  noteTemplate: string;
  /**
   * sha256 (hex) of the bodies and name templates earlier releases seeded under this key. At start-up
   * an installation still holding one of them, unedited, gets the current text (bootstrap.ts).
   */
  earlier: { body: readonly string[]; nameTemplate: readonly string[] };
}

/**
 * `{{ "phrase" | t }}`, with named arguments `{{ "phrase" | t: name: value }}`: one of Chronicle's
 * phrases in the report's language (packages/document phrases.ts). In English each prints the text
 * the built-ins printed before they were translated, byte for byte.
 */
const T = (phrase: string, args?: string): string => `{{ "${phrase}" | t${args ? `: ${args}` : ''} }}`;

const EMPTY = T('No time was tracked in this period.');
/** The numbers of entries and days as the report's language writes them (`3 entries`), for the sentences that name them. */
const COUNTS =
  `{% capture t_entries %}${T('{count} entries', 'count: totals.entryCount')}{% endcapture %}` +
  `{% capture t_days %}${T('{count} days', 'count: groups.byDay.size')}{% endcapture %}`;
const ENTRIES = '{{ t_entries }}';
const DAYS = '{{ t_days }}';

/**
 * The report's name, period, owner and generation time are not repeated in bodies: the share page
 * and the web app show them from the version's front matter, in one format.
 */
const HEADER = `${COUNTS}**${T('Total:')}** {{ totals.minutes | duration }} ({{ totals.minutes | hours }} h) ${T('in {entries} over {days}', 'entries: t_entries, days: t_days')}
{% if totals.billableMinutes > 0 %}
**${T('Billable:')}** {{ totals.billableMinutes | duration }}{% if totals.amounts.size > 0 %} · **${T('Amount:')}** {{ totals.amounts | money }}{% endif %}{% if totals.nonBillableMinutes > 0 %} · ${T('not billable:')} {{ totals.nonBillableMinutes | duration }}{% endif %}
{% endif %}`;

/** Sets `money` when the report has amounts to show (billing.md §5: never when money is hidden). */
const MONEY = '{%- assign money = false -%}{%- if totals.amounts.size > 0 -%}{%- assign money = true -%}{%- endif -%}';
/** Billable and Amount columns, only when the report has money to show. */
const IF_MONEY = (text: string): string => `{% if money %}${text}{% endif %}`;
/** A bold total of amounts, or nothing where there are none (bold markers around nothing would print as `****`). */
const BOLD_AMOUNTS = (list: string): string => `{% if ${list}.size > 0 %}**{{ ${list} | money }}**{% endif %}`;

/** How the report's rounding reads in a sentence, when it rounds. */
const ROUNDING = `{% assign r = report.options.rounding %}{% if r.mode != "none" %}
_{% case r.mode %}{% when "up" %}${T('Billable time is rounded up to {count} minutes per entry.', 'count: r.minutes')}{% when "down" %}${T('Billable time is rounded down to {count} minutes per entry.', 'count: r.minutes')}{% else %}${T('Billable time is rounded to the nearest {count} minutes per entry.', 'count: r.minutes')}{% endcase %}_
{% endif %}`;

const NOTE = `{% if report.note %}
## ${T('Note')}

{{ report.note }}
{% endif %}`;

const FOOTER = `
---

{% capture t_workspaces %}{% for w in workspaces %}{{ w.name | md }}{% unless forloop.last %}, {% endunless %}{% endfor %}{% endcapture %}_${T('Time tracked in {workspaces}.', 'workspaces: t_workspaces')}_
`;

/** A Person column, only when the entries are more than one person's. */
const IF_PEOPLE = (text: string): string => `{% if people > 1 %}${text}{% endif %}`;
/** A Tags column, only when an entry has a tag: a column of empty cells says nothing and takes a phone's width. */
const IF_TAGS = (text: string): string => `{% if tagged %}${text}{% endif %}`;

const TIMESHEET = `${HEADER}${NOTE}
{% if entries.size == 0 -%}
${EMPTY}
{% else -%}
{%- assign people = groups.byUser.size -%}
{%- assign tagged = false -%}{%- if groups.byTag.size > 0 -%}{%- assign tagged = true -%}{%- endif -%}
${MONEY}
{% chart "hours_by_day" %}

| ${T('Date')} | ${T('Time')} |${IF_PEOPLE(` ${T('Person')} |`)} ${T('Project')} | ${T('Description')} |${IF_TAGS(` ${T('Tags')} |`)} ${T('Duration')} |${IF_MONEY(` ${T('Billable')} | ${T('Amount')} |`)}
|---|---|${IF_PEOPLE('---|')}---|---|${IF_TAGS('---|')}---:|${IF_MONEY('---:|---:|')}
{% for day in groups.byDay -%}
{% for e in day.entries -%}
| {{ e.date }} | {{ e.time }} |${IF_PEOPLE(' {{ e.user.name | md }} |')} {% if e.project %}{{ e.project.name | md }}{% else %}—{% endif %} | {{ e.description | md }} |${IF_TAGS(' {{ e.tags | join: ", " | md }} |')} {{ e.minutes | duration }} |${IF_MONEY(' {% if e.billable %}{{ e.billableMinutes | duration }}{% endif %} | {{ e.amount | money }} |')}
{% endfor -%}
| **{{ day.weekdayName }} {{ day.date }}** | |${IF_PEOPLE(' |')} | **${T('Day total')}** |${IF_TAGS(' |')} **{{ day.minutes | duration }}** |${IF_MONEY(` **{{ day.billableMinutes | duration }}** | ${BOLD_AMOUNTS('day.amounts')} |`)}
{% endfor -%}
| **${T('Total')}** | |${IF_PEOPLE(' |')} | **${DAYS}, ${ENTRIES}** |${IF_TAGS(' |')} **{{ totals.minutes | duration }}** |${IF_MONEY(' **{{ totals.billableMinutes | duration }}** | **{{ totals.amounts | money }}** |')}
{% endif %}${FOOTER}`;

const GROUP_TABLE = (title: string, column: string, list: string, label: string): string => `
## ${title}

| ${column} | ${T('Entries')} | ${T('Duration')} | ${T('Hours')} | ${T('Share')} |
|---|---:|---:|---:|---:|
{% for g in ${list} -%}
| ${label} | {{ g.entryCount }} | {{ g.minutes | duration }} | {{ g.hours }} | {{ g.share }}% |
{% endfor -%}
`;

const PROJECT_LABEL = `{% if g.id %}{{ g.name | md }}{% else %}_${T('No project')}_{% endif %}`;

const SUMMARY = `${HEADER}${NOTE}
{% if totals.entryCount == 0 -%}
${EMPTY}
{% else -%}
{% chart "hours_by_day" %}
${GROUP_TABLE(T('By project'), T('Project'), 'groups.byProject', PROJECT_LABEL)}| **${T('Total')}** | **{{ totals.entryCount }}** | **{{ totals.minutes | duration }}** | **{{ totals.hours }}** | **100.0%** |
${GROUP_TABLE(T('By user'), T('User'), 'groups.byUser', '{{ g.name | md }}')}| **${T('Total')}** | **{{ totals.entryCount }}** | **{{ totals.minutes | duration }}** | **{{ totals.hours }}** | **100.0%** |

## ${T('By tag')}

{% if groups.byTag.size == 0 -%}
${T('No entries carry tags.')}
{% else -%}
| ${T('Tag')} | ${T('Entries')} | ${T('Duration')} | ${T('Hours')} | ${T('Share')} |
|---|---:|---:|---:|---:|
{% for g in groups.byTag -%}
| {{ g.tag | md }} | {{ g.entryCount }} | {{ g.minutes | duration }} | {{ g.hours }} | {{ g.share }}% |
{% endfor %}
${T('An entry with several tags counts towards each of them, so shares may add up to more than 100%.')}
{% endif %}
{%- endif %}${FOOTER}`;

const WEEKLY_STATUS = `${COUNTS}{% if report.note %}{{ report.note }}
{% endif %}
## ${T('Highlights')}

{% if totals.entryCount == 0 -%}
${EMPTY}
{% else -%}
{%- assign busiest = groups.byDay | sort: "minutes" | last -%}
{%- assign top = groups.byProject | first -%}
{%- assign longest = entries | sort: "minutes" | reverse -%}
- **{{ totals.minutes | duration }}** ${T('tracked in {entries} over {days}', 'entries: t_entries, days: t_days')}
{% capture t_top %}**{% if top.id %}{{ top.name | md }}{% else %}${T('No project')}{% endif %}**{% endcapture %}{% capture t_top_time %}{{ top.minutes | duration }}{% endcapture %}- ${T('Most time went to {project}: {duration} ({share}%)', 'project: t_top, duration: t_top_time, share: top.share')}
{% capture t_busiest_time %}{{ busiest.minutes | duration }}{% endcapture %}- ${T('Busiest day: {weekday} {date}, {duration}', 'weekday: busiest.weekdayName, date: busiest.date, duration: t_busiest_time')}
- ${T('Longest pieces of work:')}
{%- for e in longest limit: 3 %}
  - {% if e.description != blank %}{{ e.description | md }}{% else %}_${T('No description')}_{% endif %}{% if e.project %} ({{ e.project.name | md }}){% endif %}: {{ e.minutes | duration }}, {{ e.date }}
{%- endfor %}
${GROUP_TABLE(T('Time by project'), T('Project'), 'groups.byProject', PROJECT_LABEL)}
{%- if groups.byTag.size > 0 %}${GROUP_TABLE(T('Time by tag'), T('Tag'), 'groups.byTag', '{{ g.tag | md }}')}{% endif %}
{%- endif %}${FOOTER}`;

/**
 * What a client is invoiced for: billable time by client, then project, then person at each rate,
 * with hours, rate and amount per line, a total per client and one per currency. Without money
 * to show (hidden, not visible to the owner, or no rates) it lists billable hours alone.
 */
const INVOICE_SUMMARY = `${HEADER}${ROUNDING}${NOTE}
{% if totals.entryCount == 0 -%}
${EMPTY}
{% elsif totals.nonBillableMinutes == totals.minutes -%}
${T('None of this time is billable: mark projects billable by default, or entries billable, to invoice it.')}

| ${T('Client')} | ${T('Project')} | ${T('Person')} | ${T('Hours')} |
|---|---|---|---:|
{% for c in groups.byClient -%}
{% for p in c.projects -%}
{% for l in p.lines -%}
| {% if c.id %}{{ c.name | md }}{% else %}_${T('No client')}_{% endif %} | {% if p.id %}{{ p.name | md }}{% else %}_${T('No project')}_{% endif %} | {{ l.user.name | md }} | {{ l.minutes | hours }} |
{% endfor -%}
{% endfor -%}
{% endfor -%}
{% else -%}
${MONEY}
{% for c in groups.byClient -%}
{% if c.billableMinutes > 0 -%}
## {% if c.id %}{{ c.name | md }}{% else %}_${T('No client')}_{% endif %}

| ${T('Project')} | ${T('Person')} | ${T('Hours')} |${IF_MONEY(` ${T('Rate')} | ${T('Amount')} |`)}
|---|---|---:|${IF_MONEY('---:|---:|')}
{% for p in c.projects -%}
{% for l in p.lines -%}
{% if l.billable -%}
| {% if p.id %}{{ p.name | md }}{% else %}_${T('No project')}_{% endif %} | {{ l.user.name | md }} | {{ l.billableMinutes | hours }} |${IF_MONEY(' {% if l.rate %}{{ l.rate | money }}/h{% else %}—{% endif %} | {{ l.amount | money }} |')}
{% endif -%}
{% endfor -%}
{% endfor -%}
| **${T('Total')}** | | **{{ c.billableMinutes | hours }}** |${IF_MONEY(` | ${BOLD_AMOUNTS('c.amounts')} |`)}

{% endif -%}
{% endfor -%}
{% if money -%}
{% chart "amount_by_client" %}

{% endif -%}
## ${T('Total')}

| | ${T('Hours')} |${IF_MONEY(` ${T('Amount')} |`)}
|---|---:|${IF_MONEY('---:|')}
| **${T('Billable time')}** | **{{ totals.billableMinutes | hours }}** |${IF_MONEY(' |')}
{% if money -%}
{% for a in totals.amounts -%}
| **${T('Total due in {currency}', 'currency: a.currency')}** | | **{{ a | money }}** |
{% endfor -%}
{% endif -%}
{% endif %}${FOOTER}`;

/**
 * The period, each day as the report's language writes one: `9 Mar 2026 – 15 Mar 2026`,
 * `9. März 2026 – 15. März 2026`, `2026年3月9日 – 2026年3月15日`.
 */
const PERIOD =
  '{% assign day_format = "%-d %b %Y" | t %}{{ report.period.from | date: day_format }} – {{ report.period.to | date: day_format }}';

export const BUILTIN_TEMPLATES: ReadonlyArray<BuiltinTemplate> = [
  {
    key: 'timesheet',
    name: 'Timesheet',
    description: 'Every entry of the period, day by day, with day subtotals and a grand total.',
    body: TIMESHEET,
    nameTemplate: `${T('Timesheet')} ${PERIOD}`,
    noteTemplate: '',
    earlier: {
      body: [
        '7c6d08897d76c99d3f1e07e4b633c6df4cd5c89ec390f8a344cc245f3b9a26e1',
        'f090ba0e56f16d76775806726f4d5d73f7f312c0992a886238ea2391a656c7dd',
        '8826a361ffa90da2c9864b6ec5946b86b678e3fcdc32b5095ea82091d845fde1',
        '5dd73c1e0c103848fadd2e9b464b1d4b8a24320dc67136e9d02377cd4c880c8e',
        '5c36254ed6a054db181ab723d46d8701ae00c92bf331896d5b48b5b192393621',
        'c401b42b56279473c0f247e1cc8daa0d451fc156d31c107aea4c95939d9c41a1',
      ],
      nameTemplate: [
        'fe575e17e23f40fddb2091884f1238494f76cf60b095eae9d60762f58cc1d3dd',
        'c51e50fa27ef20743b415b9343f71cdc813a35d37214c4311f0ab39f3d617029',
        'cfcf7d7bd33b0c30bac6b5f628c1a23a35229f2045c818d2f32ff9c8407fdcd3',
      ],
    },
  },
  {
    key: 'summary',
    name: 'Summary',
    description: 'Time by project, by user and by tag, in hours and as a share of the total.',
    body: SUMMARY,
    nameTemplate: `${T('Summary')} ${PERIOD}`,
    noteTemplate: '',
    earlier: {
      body: [
        'e12a521265f88da8b4c45d259a631ba51616078c4ad8dd85ef509993a10684eb',
        '1c87bcf2be036911d40313eba929c8071a5924415912b6ee0c40f67a1e59825a',
        '1946e0c21aaea439425997a5feaf13e20bb6099e6e7333a414ae79ae187fd6ab',
        '7d1e0b6e6ef2f6d6c367b1f040e4650cea8221f91a7c056bc9d5fa516f979476',
      ],
      nameTemplate: [
        '9385271db6101086a4ed1e9c72cec18a54a71b51e56188ecbaa651571b8a7a0e',
        'f2049f687e781b1e8cd18fc6de59b104d7601ba80b1cd3fd46de8356ed11e17b',
        '4fb609b33f855edb1733ce5f2587158b42c5d070d1b6ac24f174af57908a4cba',
      ],
    },
  },
  {
    key: 'weekly-status',
    name: 'Weekly status',
    description: 'A status update: your note, the highlights of the period and where the time went.',
    body: WEEKLY_STATUS,
    nameTemplate: `${T('Weekly status')} ${PERIOD}`,
    noteTemplate: '**Done**\n\n- \n\n**Next**\n\n- \n\n**Blockers**\n\n- None',
    earlier: {
      body: [
        'eb190ea65c5beadb66a51088aa8d94ec0ebdad3992c3e2d13f62d1a72e6212a5',
        'f3584565ca29b1cd25d1e8286e367133adcda003ab6c52c9fa9d4670f7b5ca65',
      ],
      nameTemplate: [
        'e9ce14128500039f623767b909b41a1707159b86d04533782343e4261c9cc9ca',
        '1290412f8585a4fa6b78c9ebf4531eefb729064927e3071251591b14cd651b24',
        '6fc6e015bb7efd276dc5863fefae8d2d13f6c2b1235697649aa099d9b0370032',
      ],
    },
  },
  {
    key: 'invoice-summary',
    name: 'Invoice summary',
    description: 'Billable hours by client, project and person, with rates, amounts and totals per client and currency.',
    body: INVOICE_SUMMARY,
    nameTemplate: `${T('Invoice summary')} ${PERIOD}`,
    noteTemplate: '',
    earlier: {
      body: [
        'e5a0175d61642f7f9956ef8057424bbfe4911e3aaa5e2c44fc5cb51e4be7856a',
        'fc31686075ab97909c31ac5094be472297eedaeae211722de09761559e5d8137',
        'e9db842a1ac97e36896a07880a91be21e314c4e0cb646efd7dc85e6858e0cdd7',
      ],
      nameTemplate: [
        '2b9d2177a004d17e719c41f344edd28bf9507380c063456fdbb2597dff211a9c',
        'd389ff0fd37b997bc6ed2f78d6ff36baba4dcd5b45adaa1b04bb08ba7595a24a',
      ],
    },
  },
];
