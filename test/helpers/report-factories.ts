/** Factories for reports, made through the API like a client would. */
import type { TestContext, TestUser } from './test-app.js';

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
  const res = await t.post('/api/v1/templates', {
    name: `T ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
    body,
    ...extra,
  });
  if (res.status !== 201) throw new Error(`newTemplate failed: ${res.status} ${res.text}`);
  return res.body.id;
}

/** The id of a seeded built-in template (default: the timesheet). */
export async function builtInTemplateId(t: TestContext, namePart = 'imesheet'): Promise<string> {
  const res = await t.get('/api/v1/templates');
  const found = (res.body as { id: string; name: string; builtIn: boolean }[]).find((x) => x.builtIn && x.name.includes(namePart));
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
  const res = await t.post(
    '/api/v1/reports',
    {
      name: fields.name ?? 'Report',
      templateId,
      ...(fields.note !== undefined ? { note: fields.note } : {}),
      filters: { workspaceIds, dateRange: { from: '2026-11-01', to: '2026-11-30' }, ...fields.filters },
    },
    owner.token,
  );
  if (res.status !== 201) throw new Error(`newReport failed: ${res.status} ${res.text}`);
  return res.body;
}

/** Edits a report (same body shape as create), returning the new version. */
export async function editReport(
  t: TestContext,
  owner: TestUser,
  report: TestReport & { name?: unknown; templateId?: unknown; filters?: unknown },
  changes: Record<string, unknown> = {},
): Promise<TestReport> {
  const res = await t.patch(
    `/api/v1/reports/${report.id}`,
    { name: report.name, templateId: report.templateId, filters: report.filters, ...changes },
    owner.token,
  );
  if (res.status !== 200) throw new Error(`editReport failed: ${res.status} ${res.text}`);
  return res.body;
}
