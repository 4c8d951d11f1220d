/** Report templates (docs/api.md "Templates"): readable by everyone, managed by instance admins. */
import type { Actor, AppContext } from '../../context.js';
import { requireInstanceAdmin, requireTemplateReader } from '../access/access.js';
import { badRequest, notFound, type FieldError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import * as repo from '../../repositories/templates.repository.js';
import type { Preview } from '../reports/reports.schemas.js';
import { preview } from '../reports/reports.service.js';
import type { CreateTemplateInput, ListTemplatesInput, PatchTemplateInput, PreviewTemplateInput, Template } from './templates.schemas.js';

function toTemplate(row: repo.TemplateRow): Template {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    body: row.body,
    nameTemplate: row.nameTemplate,
    noteTemplate: row.noteTemplate,
    enabled: row.enabled,
    builtIn: row.builtInKey !== null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const TEXT_FIELDS = ['name', 'description', 'body', 'nameTemplate', 'noteTemplate'] as const;
const LIQUID_FIELDS = ['body', 'nameTemplate', 'noteTemplate'] as const;

/**
 * Refuses what could never render: U+0000 (PostgreSQL text cannot hold it) and Liquid that does
 * not parse, each reported at its field with the line and column the parser names. Parsing and
 * analysing a template of up to 200,000 characters takes a while: it runs in a render worker,
 * admitted by the render gate like a render (docs/operations.md "Renders").
 */
async function assertUsable(ctx: AppContext, actor: Actor, input: PatchTemplateInput): Promise<void> {
  const errors: FieldError[] = [];
  for (const field of TEXT_FIELDS) {
    if (input[field]?.includes('\u0000')) errors.push({ path: `/${field}`, message: 'must not contain U+0000' });
  }
  const fields = LIQUID_FIELDS.filter((field) => input[field] !== undefined);
  if (errors.length === 0 && fields.length > 0) {
    const sources = fields.map((field) => input[field] ?? '');
    const analyses = await ctx.renderGate.run(actor.user.id, () => ctx.renderer.analyze(sources));
    analyses.forEach((analysis, i) => {
      if (!analysis.ok) errors.push({ path: `/${fields[i] ?? ''}`, message: analysis.error.message });
    });
  }
  if (errors.length > 0) throw badRequest('The template is not valid.', errors);
}

/** Asking for disabled templates is an admin-only option: 403 for anyone else, not a silent no-op. */
export async function listTemplates(ctx: AppContext, actor: Actor, query: ListTemplatesInput): Promise<Template[]> {
  const includeDisabled = query.includeDisabled ?? false;
  if (includeDisabled) requireInstanceAdmin(actor, 'list disabled templates');
  return (await repo.listTemplates(ctx.db, includeDisabled)).map(toTemplate);
}

/** A disabled template is hidden (404) from everyone but instance admins. */
export async function getTemplate(ctx: AppContext, actor: Actor, id: string): Promise<Template> {
  const row = await repo.findTemplate(ctx.db, id);
  requireTemplateReader(actor, row);
  return toTemplate(row);
}

export async function createTemplate(ctx: AppContext, actor: Actor, input: CreateTemplateInput): Promise<Template> {
  requireInstanceAdmin(actor, 'manage templates');
  await assertUsable(ctx, actor, input);
  const now = ctx.clock.now();
  const row = await repo.insertTemplate(ctx.db, {
    id: newId(),
    name: input.name,
    description: input.description ?? '',
    body: input.body,
    nameTemplate: input.nameTemplate ?? '',
    noteTemplate: input.noteTemplate ?? '',
    enabled: input.enabled ?? true,
    builtInKey: null,
    createdAt: now,
    updatedAt: now,
  });
  return toTemplate(row);
}

/** Built-in templates may be edited, disabled and deleted like any other; they stay marked built-in. */
export async function patchTemplate(ctx: AppContext, actor: Actor, id: string, input: PatchTemplateInput): Promise<Template> {
  requireInstanceAdmin(actor, 'manage templates');
  await assertUsable(ctx, actor, input);
  if (Object.keys(input).length === 0) {
    const row = await repo.findTemplate(ctx.db, id);
    if (!row) throw notFound();
    return toTemplate(row);
  }
  const row = await repo.updateTemplate(ctx.db, id, { ...input, updatedAt: ctx.clock.now() });
  if (!row) throw notFound();
  return toTemplate(row);
}

/** Reports keep their templateId (not a foreign key), so they survive this. */
export async function deleteTemplate(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  requireInstanceAdmin(actor, 'manage templates');
  if (!(await repo.deleteTemplate(ctx.db, id))) throw notFound();
}

/**
 * Renders an unsaved template against filters for an instance admin editing it: the report
 * preview's rules and limits (the caller's workspaces and projects, the render gate), with
 * syntax errors at their field and render errors at `/body`, each with its line and column.
 */
export async function previewTemplate(ctx: AppContext, actor: Actor, input: PreviewTemplateInput): Promise<Preview> {
  requireInstanceAdmin(actor, 'preview unsaved templates');
  await assertUsable(ctx, actor, input);
  const unsaved = {
    id: 'unsaved',
    name: 'Unsaved template',
    body: input.body,
    nameTemplate: input.nameTemplate ?? '',
    noteTemplate: input.noteTemplate ?? '',
  };
  return preview(
    ctx,
    actor,
    { name: input.name ?? 'Template preview', templateId: unsaved.id, filters: input.filters, note: null },
    unsaved,
  );
}
