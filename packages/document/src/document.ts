import YAML from 'yaml';

/** The system-generated provenance header of a rendered report (docs/templates.md). */
export interface FrontMatter {
  report: { id: string | null; name: string; version: number };
  owner: { id: string; name: string };
  period: { from: string; to: string };
  timezone: string;
  generatedAt: string;
  template: { id: string; name: string };
  filters: Record<string, unknown>;
  totalMinutes: number;
}

const FENCE = '---\n';
const CLOSING_FENCE = '\n---\n';

// `compat` quotes strings that YAML 1.1 readers would take for something else (yes, on,
// 0x1F), so other front-matter tools read the names back as the same strings.
const STRINGIFY_OPTIONS = { lineWidth: 0, compat: 'yaml-1.1' } as const;

/**
 * Joins the YAML front matter and the rendered body: `---\n<yaml>---\n\n<body>`.
 * Every string is quoted or indented as YAML needs, so no value (a name containing
 * `---` on its own line included) can close the header early.
 */
export function buildDocument(frontMatter: FrontMatter, body: string): string {
  // Fixed key order: the header reads the same whatever order the caller built it in.
  const ordered: FrontMatter = {
    report: { id: frontMatter.report.id, name: frontMatter.report.name, version: frontMatter.report.version },
    owner: { id: frontMatter.owner.id, name: frontMatter.owner.name },
    period: { from: frontMatter.period.from, to: frontMatter.period.to },
    timezone: frontMatter.timezone,
    generatedAt: frontMatter.generatedAt,
    template: { id: frontMatter.template.id, name: frontMatter.template.name },
    filters: frontMatter.filters,
    totalMinutes: frontMatter.totalMinutes,
  };
  return `${FENCE}${YAML.stringify(ordered, STRINGIFY_OPTIONS)}${FENCE}\n${body}`;
}

/**
 * Splits a document made by buildDocument back into its header and body, the body
 * exactly as it was given. A document without a well-formed header gives
 * `frontMatter: null` and the whole text as body.
 */
export function parseDocument(markdown: string): { frontMatter: FrontMatter | null; body: string } {
  const none = { frontMatter: null, body: markdown };
  if (!markdown.startsWith(FENCE)) return none;
  // The header's YAML never has `---` at the start of a line, so the first one closes it.
  const close = markdown.indexOf(CLOSING_FENCE, FENCE.length - 1);
  if (close === -1) return none;
  let data: unknown;
  try {
    data = YAML.parse(markdown.slice(FENCE.length, close + 1));
  } catch {
    return none;
  }
  if (!isFrontMatter(data)) return none;
  const rest = markdown.slice(close + CLOSING_FENCE.length);
  return { frontMatter: data, body: rest.startsWith('\n') ? rest.slice(1) : rest };
}

function isFrontMatter(v: unknown): v is FrontMatter {
  if (!isRecord(v)) return false;
  const { report, owner, period, template } = v;
  return (
    isRecord(report) &&
    (report.id === null || typeof report.id === 'string') &&
    typeof report.name === 'string' &&
    typeof report.version === 'number' &&
    isRecord(owner) &&
    typeof owner.id === 'string' &&
    typeof owner.name === 'string' &&
    isRecord(period) &&
    typeof period.from === 'string' &&
    typeof period.to === 'string' &&
    typeof v.timezone === 'string' &&
    typeof v.generatedAt === 'string' &&
    isRecord(template) &&
    typeof template.id === 'string' &&
    typeof template.name === 'string' &&
    isRecord(v.filters) &&
    typeof v.totalMinutes === 'number'
  );
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
