import { buildDocument } from '../../packages/document/src/index.js';
import type { PdfInput } from '../../src/render/pdf/render-pdf.js';

/**
 * Documents shaped like the built-in templates' output (src/render/builtin-templates.ts), made
 * without a database: for the PDF tests, the PDF benchmark and `scripts/pdf-samples.ts`.
 */

/** Twenty people, the owner first: a team's month reads with twenty different names. */
export const PEOPLE = [
  'Ana Souza',
  'Ben Okafor',
  'Chloé Martin',
  'Dmitri Ivanov',
  'Eleni Papadopoulou',
  'Farah Haddad',
  'Gustav Lind',
  'Hana Kobayashi',
  'Ivan Petrov',
  'Julia Nowak',
  'Kofi Mensah',
  'Lena Müller',
  'Mateo García',
  'Nora Berg',
  'Oskar Nilsson',
  'Priya Raman',
  'Quentin Roy',
  'Rosa Bianchi',
  'Sven Dahl',
  'Tomás Ruiz',
];
const PROJECTS = ['Website relaunch', 'Mobile app', 'Data migration', 'Support', 'Design system', 'Internal'];
const TASKS = [
  'Code review of the checkout flow',
  'Sprint planning and estimation with the client team',
  'Fixed timezone bug in the calendar export',
  'Call with Acme about the invoice layout',
  'Wrote migration for the orders table; backfilled historical rows and checked totals against the old system',
  'Accessibility audit of the settings pages',
  'Pairing on search indexing',
  'Deployment and smoke tests',
];

const pad = (n: number): string => String(n).padStart(2, '0');
const duration = (minutes: number): string => `${Math.floor(minutes / 60)}h ${pad(minutes % 60)}m`;
const money = (cents: number): string =>
  `€${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
/** A deterministic sequence, so samples are the same on every run. */
const pick = <T>(list: readonly T[], i: number): T => list[(i * 7919) % list.length] as T;

export interface TimesheetOptions {
  rows: number;
  people?: number;
  /** Add a day total after each day's entries (the built-in template does). */
  dayTotals?: boolean;
}

/** The Timesheet body: `| Date | Start | Person | Project | Description | Duration | Billable | Amount |` with day totals and a grand total. */
export function timesheetBody({ rows, people = 20, dayTotals = true }: TimesheetOptions): string {
  const perDay = Math.max(1, Math.ceil(rows / 30));
  const lines = [
    '**Total:** many hours in this period',
    '',
    '| Date | Start | Person | Project | Description | Duration | Billable | Amount |',
    '|---|---|---|---|---|---:|---:|---:|',
  ];
  let total = 0;
  let totalAmount = 0;
  let day = 0;
  for (let i = 0; i < rows; day += 1) {
    let dayMinutes = 0;
    let dayAmount = 0;
    const date = `2026-11-${pad((day % 30) + 1)}`;
    for (let j = 0; j < perDay && i < rows; j++, i++) {
      const minutes = 15 + ((i * 37) % 240);
      const amount = Math.round((minutes / 60) * 9500);
      dayMinutes += minutes;
      dayAmount += amount;
      const person = PEOPLE[i % Math.min(people, PEOPLE.length)] ?? 'Someone';
      lines.push(
        `| ${date} | ${pad(8 + (j % 10))}:${pad((i * 13) % 60)} | ${person} | ${pick(PROJECTS, i)} | ${pick(TASKS, i)} (entry ${i + 1}) | ${duration(minutes)} | ${duration(minutes)} | ${money(amount)} |`,
      );
    }
    total += dayMinutes;
    totalAmount += dayAmount;
    if (dayTotals) {
      lines.push(
        `| **Day ${date}** | | | | **Day total** | **${duration(dayMinutes)}** | **${duration(dayMinutes)}** | **${money(dayAmount)}** |`,
      );
    }
  }
  lines.push(`| **Total** | | | | **${rows} entries** | **${duration(total)}** | **${duration(total)}** | **${money(totalAmount)}** |`);
  lines.push('', '---', '', '_Time tracked in Acme Studio._', '');
  return lines.join('\n');
}

export function summaryBody(): string {
  return `**Total:** 412h 30m (412.5 h) in 603 entries over 21 days

**Billable:** 380h 00m · **Amount:** €36,100.00 · not billable: 32h 30m

## By project

| Project | Entries | Duration | Hours | Share |
|---|---:|---:|---:|---:|
| Website relaunch | 210 | 150h 15m | 150.25 | 36.4% |
| Mobile app | 150 | 101h 00m | 101.00 | 24.5% |
| Data migration | 98 | 72h 45m | 72.75 | 17.6% |
| Support | 80 | 48h 30m | 48.50 | 11.8% |
| _No project_ | 65 | 40h 00m | 40.00 | 9.7% |
| **Total** | **603** | **412h 30m** | **412.50** | **100.0%** |

## By user

| User | Entries | Duration | Hours | Share |
|---|---:|---:|---:|---:|
| Ana Souza | 120 | 90h 00m | 90.00 | 21.8% |
| Eleni Papadopoulou (Ελληνικά) | 110 | 85h 30m | 85.50 | 20.7% |
| Dmitri Ivanov (Кириллица) | 100 | 80h 00m | 80.00 | 19.4% |
| Chloé Martin | 150 | 82h 00m | 82.00 | 19.9% |
| Hana Kobayashi | 123 | 75h 00m | 75.00 | 18.2% |
| **Total** | **603** | **412h 30m** | **412.50** | **100.0%** |

## Notes

The relaunch went live on **18 November**; see the [release notes](https://example.com/releases) or write to
[the team](mailto:team@example.com). Work left over:

1. Finish the data migration
   - orders before 2019
   - *archived* customers
2. Review \`support\` rotations

> Numbers are rounded to the quarter hour per entry.

\`\`\`chart
hours_by_day
\`\`\`

---

_Time tracked in Acme Studio._
`;
}

export function invoiceBody(): string {
  return `**Total:** 96h 15m (96.25 h) in 58 entries over 12 days

_Billable time is rounded up to 15 minutes per entry._

## Acme Corporation

| Project | Person | Hours | Rate | Amount |
|---|---|---:|---:|---:|
| Website relaunch | Ana Souza | 32.50 | €120.00/h | €3,900.00 |
| Website relaunch | Ben Okafor | 18.25 | €95.00/h | €1,733.75 |
| Mobile app | Chloé Martin | 12.00 | €110.00/h | €1,320.00 |
| **Total** | | **62.75** | | **€6,953.75** |

## Globex GmbH

| Project | Person | Hours | Rate | Amount |
|---|---|---:|---:|---:|
| Data migration | Dmitri Ivanov | 21.00 | €105.00/h | €2,205.00 |
| Data migration | Lena Müller | 12.50 | €105.00/h | €1,312.50 |
| **Total** | | **33.50** | | **€3,517.50** |

## Total

| | Hours | Amount |
|---|---:|---:|
| **Billable time** | **96.25** | |
| **Total due in EUR** | | **€10,471.25** |

---

_Time tracked in Acme Studio._
`;
}

/** A whole PdfInput around a body, with front matter as the render writes it. */
export function pdfInput(body: string, overrides: Partial<PdfInput> = {}): PdfInput {
  const title = overrides.title ?? 'Acme November timesheet';
  const generatedAt = overrides.generatedAt ?? '2026-12-01T09:30:00.000Z';
  const markdown = buildDocument(
    {
      report: { id: '0190a000-0000-7000-8000-000000000001', name: title, version: overrides.version ?? 3 },
      owner: { id: '0190a000-0000-7000-8000-000000000002', name: overrides.ownerName ?? 'Ana Souza' },
      period: overrides.period ?? { from: '2026-11-01', to: '2026-11-30' },
      timezone: overrides.timezone ?? 'Europe/Berlin',
      generatedAt,
      template: { id: '0190a000-0000-7000-8000-000000000003', name: 'Timesheet' },
      filters: {},
      totalMinutes: 0,
    },
    body,
  );
  return {
    markdown,
    title,
    period: { from: '2026-11-01', to: '2026-11-30' },
    ownerName: 'Ana Souza',
    version: 3,
    generatedAt,
    timezone: 'Europe/Berlin',
    locale: 'en',
    ...overrides,
  };
}
