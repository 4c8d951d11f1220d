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
}

const EMPTY = 'No time was tracked in this period.';
const ENTRIES = '{{ totals.entryCount }} {% if totals.entryCount == 1 %}entry{% else %}entries{% endif %}';
const DAYS = '{{ groups.byDay.size }} {% if groups.byDay.size == 1 %}day{% else %}days{% endif %}';

const HEADER = `# {{ report.name | md }}

**Period:** {{ report.period.from }} – {{ report.period.to }} · **Owner:** {{ owner.name | md }} · **Total:** {{ totals.minutes | duration }} ({{ totals.hours }} h, ${ENTRIES})
`;

const NOTE = `{% if report.note %}
## Note

{{ report.note }}
{% endif %}`;

const FOOTER = `
---

_Generated {{ report.generatedAtLocal }} ({{ report.timezone | md }}) from {% for w in workspaces %}{{ w.name | md }}{% unless forloop.last %}, {% endunless %}{% endfor %}, version {{ report.version }}._
`;

const TIMESHEET = `${HEADER}${NOTE}
{% if entries.size == 0 -%}
${EMPTY}
{% else -%}
| Date | Time | Project | Description | Tags | Duration |
|---|---|---|---|---|---:|
{% for day in groups.byDay -%}
{% for e in day.entries -%}
| {{ e.date }} | {{ e.time }} | {% if e.project %}{{ e.project.name | md }}{% else %}—{% endif %} | {{ e.description | md }} | {{ e.tags | join: ", " | md }} | {{ e.minutes | duration }} |
{% endfor -%}
| **{{ day.weekday }} {{ day.date }}** | | | **Day total** | | **{{ day.minutes | duration }}** |
{% endfor -%}
| **Total** | | | **${DAYS}, ${ENTRIES}** | | **{{ totals.minutes | duration }}** |
{% endif %}${FOOTER}`;

const GROUP_TABLE = (title: string, column: string, list: string, label: string): string => `
## ${title}

| ${column} | Entries | Duration | Hours | Share |
|---|---:|---:|---:|---:|
{% for g in ${list} -%}
| ${label} | {{ g.entryCount }} | {{ g.minutes | duration }} | {{ g.hours }} | {{ g.share }}% |
{% endfor -%}
`;

const PROJECT_LABEL = '{% if g.id %}{{ g.name | md }}{% else %}_{{ g.name | md }}_{% endif %}';

const SUMMARY = `${HEADER}${NOTE}
{% if totals.entryCount == 0 -%}
${EMPTY}
{% else -%}
${GROUP_TABLE('By project', 'Project', 'groups.byProject', PROJECT_LABEL)}| **Total** | **{{ totals.entryCount }}** | **{{ totals.minutes | duration }}** | **{{ totals.hours }}** | **100.0%** |
${GROUP_TABLE('By user', 'User', 'groups.byUser', '{{ g.name | md }}')}| **Total** | **{{ totals.entryCount }}** | **{{ totals.minutes | duration }}** | **{{ totals.hours }}** | **100.0%** |

## By tag

{% if groups.byTag.size == 0 -%}
No entries carry tags.
{% else -%}
| Tag | Entries | Duration | Hours | Share |
|---|---:|---:|---:|---:|
{% for g in groups.byTag -%}
| {{ g.tag | md }} | {{ g.entryCount }} | {{ g.minutes | duration }} | {{ g.hours }} | {{ g.share }}% |
{% endfor %}
An entry with several tags counts towards each of them, so shares may add up to more than 100%.
{% endif %}
{%- endif %}${FOOTER}`;

const WEEKLY_STATUS = `# {{ report.name | md }}

**{{ owner.name | md }}** · {{ report.period.from }} – {{ report.period.to }}
{% if report.note %}
{{ report.note }}
{% endif %}
## Highlights

{% if totals.entryCount == 0 -%}
${EMPTY}
{% else -%}
{%- assign busiest = groups.byDay | sort: "minutes" | last -%}
{%- assign top = groups.byProject | first -%}
{%- assign longest = entries | sort: "minutes" | reverse -%}
- **{{ totals.minutes | duration }}** tracked in ${ENTRIES} over ${DAYS}
- Most time went to **{{ top.name | md }}**: {{ top.minutes | duration }} ({{ top.share }}%)
- Busiest day: {{ busiest.weekday }} {{ busiest.date }}, {{ busiest.minutes | duration }}
- Longest pieces of work:
{%- for e in longest limit: 3 %}
  - {% if e.description != blank %}{{ e.description | md }}{% else %}_No description_{% endif %}{% if e.project %} ({{ e.project.name | md }}){% endif %}: {{ e.minutes | duration }}, {{ e.date }}
{%- endfor %}
${GROUP_TABLE('Time by project', 'Project', 'groups.byProject', PROJECT_LABEL)}
{%- if groups.byTag.size > 0 %}${GROUP_TABLE('Time by tag', 'Tag', 'groups.byTag', '{{ g.tag | md }}')}{% endif %}
{%- endif %}${FOOTER}`;

const PERIOD = '{{ report.period.from }} – {{ report.period.to }}';

export const BUILTIN_TEMPLATES: ReadonlyArray<BuiltinTemplate> = [
  {
    key: 'timesheet',
    name: 'Timesheet',
    description: 'Every entry of the period, day by day, with day subtotals and a grand total.',
    body: TIMESHEET,
    nameTemplate: `Timesheet ${PERIOD}`,
    noteTemplate: '',
  },
  {
    key: 'summary',
    name: 'Summary',
    description: 'Time by project, by user and by tag, in hours and as a share of the total.',
    body: SUMMARY,
    nameTemplate: `Summary ${PERIOD}`,
    noteTemplate: '',
  },
  {
    key: 'weekly-status',
    name: 'Weekly status',
    description: 'A status update: your note, the highlights of the period and where the time went.',
    body: WEEKLY_STATUS,
    nameTemplate: `Weekly status ${PERIOD}`,
    noteTemplate: '**Done**\n\n- \n\n**Next**\n\n- \n\n**Blockers**\n\n- None',
  },
];
