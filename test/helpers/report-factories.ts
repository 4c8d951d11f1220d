/** Factories for templates and reports, made through Chronicle's typed client like any client would. */
import { unwrap, type components } from '../../packages/client/src/index.js';
import type { TestContext, TestUser } from './test-app.js';

type ReportBody = components['schemas']['ReportBody'];

export interface TestReport {
  id: string;
  reportContentId: string;
  version: number;
  renderedMarkdown: string;
  [key: string]: unknown;
}

/** Makes an enabled template whose body is `body` (default: a tiny table of the entries). */
export async function newTemplate(
  t: TestContext,
  body = '# {{ report.name | md }}\n\n{% for e in entries %}- {{ e.description | md }}\n{% endfor %}',
  extra: Record<string, unknown> = {},
): Promise<string> {
  const name = `T ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const made = await unwrap(t.client().POST('/api/v1/templates', { body: { name, body, ...extra } }));
  return made.id;
}

/** The id of a seeded built-in template (default: the timesheet). */
export async function builtInTemplateId(t: TestContext, namePart = 'imesheet'): Promise<string> {
  const templates = await unwrap(t.client().GET('/api/v1/templates'));
  const found = templates.find((x) => x.builtIn && x.name.includes(namePart));
  if (!found) throw new Error(`no built-in template matching ${namePart}`);
  return found.id;
}

/** Creates a report owned by `owner` over `workspaceIds` (absolute range by default). */
export async function newReport(
  t: TestContext,
  owner: TestUser,
  workspaceIds: string[],
  fields: { name?: string; templateId?: string; note?: string | null; filters?: Record<string, unknown> } = {},
): Promise<TestReport> {
  const templateId = fields.templateId ?? (await builtInTemplateId(t));
  const body: ReportBody = {
    name: fields.name ?? 'Report',
    templateId,
    ...(fields.note !== undefined ? { note: fields.note } : {}),
    filters: { workspaceIds, dateRange: { from: '2026-11-01', to: '2026-11-30' }, ...fields.filters },
  };
  return unwrap(t.client(owner.token).POST('/api/v1/reports', { body }));
}

/** Edits a report (same body shape as create), returning the new version. */
export async function editReport(
  t: TestContext,
  owner: TestUser,
  report: TestReport & { name?: unknown; templateId?: unknown; filters?: unknown },
  changes: Record<string, unknown> = {},
): Promise<TestReport> {
  const body = { name: report.name, templateId: report.templateId, filters: report.filters, ...changes } as ReportBody;
  return unwrap(t.client(owner.token).PATCH('/api/v1/reports/{id}', { params: { path: { id: report.id } }, body }));
}
