/**
 * Start-up tasks (docs/api.md "Configuration and start-up", "Templates"): the instance admin and its token, and the
 * built-in templates seeded once per installation.
 */
import { createHash } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { newId } from '../../lib/ids.js';
import { hashSecret, newApiToken } from '../../lib/tokens.js';
import { BUILTIN_TEMPLATES, type BuiltinTemplate } from '../../render/builtin-templates.js';
import * as users from '../../repositories/users.repository.js';
import * as repo from '../../repositories/bootstrap.repository.js';
import { issuePasswordLink } from '../auth/auth.service.js';
import type { PasswordLink } from '../auth/auth.schemas.js';

const ADMIN_EMAIL = 'admin@localhost';
const ADMIN_NAME = 'Administrator';

export interface BootstrapResult {
  /** A token generated on the very first start without BOOTSTRAP_ADMIN_TOKEN; printed once. */
  generatedAdminToken: string | null;
  /** With it, the admin's one-time set-password link (the web app's way in); printed once. */
  adminPasswordLink: PasswordLink | null;
}

const NOTHING_GENERATED: BootstrapResult = { generatedAdminToken: null, adminPasswordLink: null };

export async function bootstrap(ctx: AppContext): Promise<BootstrapResult> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.claimOnce(tx, 'builtin_templates_seeded', now))) return;
    await repo.insertTemplates(
      tx,
      BUILTIN_TEMPLATES.map((t) => builtInRow(t, now)),
    );
  });
  // One marker per release that changed the built-ins; the upgrade itself is the same each time.
  for (const release of [
    'builtin_templates_v2',
    'builtin_templates_v3',
    'builtin_templates_v4',
    'builtin_templates_v5',
    'builtin_templates_v6',
    'builtin_templates_v7',
    'builtin_templates_v8',
  ]) {
    await ctx.db.transaction(async (tx) => {
      if (!(await repo.claimOnce(tx, release, now))) return;
      await upgradeBuiltInTemplates(tx, now);
    });
  }

  const configured = ctx.config.bootstrapAdminToken;
  return ctx.db.transaction(async (tx) => {
    if (configured) {
      const admin = await ensureAdmin(tx, now);
      await repo.upsertBootstrapToken(tx, admin.id, hashSecret(configured), newId(), now);
      return NOTHING_GENERATED;
    }
    // The variable was removed: the token an earlier start made from it stops working.
    await repo.revokeBootstrapTokens(tx, now, null);
    if (!(await repo.claimOnce(tx, 'first_admin_created', now))) return NOTHING_GENERATED;
    if ((await users.countUsers(tx)) > 0) return NOTHING_GENERATED;
    const admin = await ensureAdmin(tx, now);
    const secret = newApiToken();
    await users.insertToken(tx, {
      id: newId(),
      userId: admin.id,
      name: 'first start',
      tokenHash: hashSecret(secret),
      scopes: ['read', 'write'],
      createdAt: now,
    });
    const adminPasswordLink = await issuePasswordLink(tx, ctx.config.publicBaseUrl, admin.id, now);
    return { generatedAdminToken: secret, adminPasswordLink };
  });
}

const builtInRow = (t: BuiltinTemplate, now: Date) => ({
  id: newId(),
  name: t.name,
  description: t.description,
  body: t.body,
  nameTemplate: t.nameTemplate,
  noteTemplate: t.noteTemplate,
  enabled: true,
  builtInKey: t.key,
  createdAt: now,
  updatedAt: now,
});

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Gives installations seeded by an earlier release the built-ins added since and the current
 * built-in bodies and name templates, once (a marker row). Only text still exactly as an earlier release seeded it is replaced: an
 * admin's edits stay. Reports keep their stored versions; the next render uses the new text.
 */
async function upgradeBuiltInTemplates(tx: AppContext['db'], now: Date): Promise<void> {
  const rows = await repo.listBuiltInTemplates(tx);
  // A built-in added since the installation was seeded (the Invoice summary) is added now.
  const seeded = new Set(rows.map((r) => r.builtInKey));
  const added = BUILTIN_TEMPLATES.filter((t) => !seeded.has(t.key));
  if (added.length > 0)
    await repo.insertTemplates(
      tx,
      added.map((t) => builtInRow(t, now)),
    );
  for (const row of rows) {
    const current = BUILTIN_TEMPLATES.find((t) => t.key === row.builtInKey);
    if (!current) continue;
    const text: { body?: string; nameTemplate?: string } = {};
    if (current.earlier.body.includes(sha256(row.body))) text.body = current.body;
    if (current.earlier.nameTemplate.includes(sha256(row.nameTemplate))) text.nameTemplate = current.nameTemplate;
    if (text.body !== undefined || text.nameTemplate !== undefined) await repo.updateTemplateText(tx, row.id, text, now);
  }
}

async function ensureAdmin(tx: AppContext['db'], now: Date): Promise<users.UserRow> {
  const existing = await users.findUserByEmail(tx, ADMIN_EMAIL);
  if (existing) {
    if (existing.instanceAdmin && existing.name === ADMIN_NAME) return existing;
    return (await users.updateUser(tx, existing.id, { instanceAdmin: true, name: ADMIN_NAME })) ?? existing;
  }
  // Another process starting at the same moment may insert it first: then use theirs.
  await users.insertUserIfAbsent(tx, {
    id: newId(),
    name: ADMIN_NAME,
    email: ADMIN_EMAIL,
    timezone: 'UTC',
    instanceAdmin: true,
    createdAt: now,
  });
  const admin = await users.findUserByEmail(tx, ADMIN_EMAIL);
  if (!admin) throw new Error('the instance admin could not be created');
  return admin;
}
