/**
 * Workspace branding (docs/api.md "Branding"): its rules, the logo's upload and removal, the
 * public logo, and `brandingOf`, the one lookup every place that shows a workspace's look calls
 * (the share page reads the same columns within its own statement: shares.repository.ts
 * `findPageSource`).
 */
import type { Actor, AppContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import { AppError, badRequest, notFound, type FieldError } from '../../lib/errors.js';
import { contrastWithWhite, isReadableAccent, MIN_ACCENT_CONTRAST } from '../../../packages/document/src/index.js';
import * as repo from '../../repositories/branding.repository.js';
import { findWorkspaceView, type WorkspaceViewRow } from '../../repositories/workspaces.repository.js';
import { requireWorkspaceAdmin, workspaceAccess } from '../access/access.js';
import type { Branding, BrandingPatchInput } from './branding.schemas.js';
import { encodeLogo, LOGO_TYPES, type LogoType } from './logo-image.js';

/** How much of the logo's sha256 its URL carries: enough that two logos never share a URL. */
const LOGO_VERSION_CHARS = 16;

/** The logo's same-origin path: versioned by its content, so it may be cached for good. */
export const logoPath = (workspaceId: string, sha256: string): string =>
  `/branding/${encodeURIComponent(workspaceId)}/logo.png?v=${sha256.slice(0, LOGO_VERSION_CHARS)}`;

/** Whether `v` (the query of a logo URL) names the logo whose sha256 is given. */
export const isCurrentLogoVersion = (v: string | undefined, sha256: string): boolean => v === sha256.slice(0, LOGO_VERSION_CHARS);

/** The branding of a workspace row, as the API shows it; the logo URL is absolute (PUBLIC_BASE_URL). */
export function toBranding(row: WorkspaceViewRow, publicBaseUrl: string): Branding {
  const logo =
    row.logoSha256 === null || row.logoWidth === null || row.logoHeight === null
      ? null
      : { url: `${publicBaseUrl}${logoPath(row.id, row.logoSha256)}`, width: row.logoWidth, height: row.logoHeight };
  return { displayName: row.brandingDisplayName, accentColor: row.brandingAccentColor, footer: row.brandingFooter, logo };
}

/**
 * The columns a branding change sets, after the rules the schema cannot say: the display name is
 * trimmed and may not be blank; the accent colour is stored in lower case and must have a contrast
 * of at least 4.5:1 with white. 400 naming each refused field.
 */
export function brandingPatch(input: BrandingPatchInput): repo.BrandingPatch {
  const errors: FieldError[] = [];
  const patch: repo.BrandingPatch = {};
  if (input.displayName !== undefined) {
    const name = input.displayName === null ? null : input.displayName.trim();
    if (name === '') errors.push({ path: '/branding/displayName', message: 'must not be blank' });
    else patch.brandingDisplayName = name;
  }
  if (input.accentColor !== undefined) {
    const color = input.accentColor?.toLowerCase() ?? null;
    if (color !== null && !isReadableAccent(color)) {
      const ratio = Math.floor(contrastWithWhite(color) * 100) / 100;
      errors.push({
        path: '/branding/accentColor',
        message: `has a contrast of ${ratio}:1 with white; at least ${MIN_ACCENT_CONTRAST}:1 is needed (a darker colour)`,
      });
    } else patch.brandingAccentColor = color;
  }
  if (input.footer !== undefined) patch.brandingFooter = input.footer;
  if (errors.length > 0) throw badRequest('The request is not valid.', errors);
  return patch;
}

/** The media type of an upload without its parameters, when it is one a logo may have. */
function logoTypeOf(contentType: string | undefined): LogoType {
  const type = (contentType ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
  if (type in LOGO_TYPES) return type as LogoType;
  throw new AppError('unsupported_media_type', 'Send the logo as image/png, image/jpeg or image/webp, the image itself as the body.');
}

async function brandingView(ctx: AppContext, workspaceId: string): Promise<Branding> {
  const row = await findWorkspaceView(ctx.db, workspaceId);
  if (!row) throw notFound();
  return toBranding(row, ctx.config.publicBaseUrl);
}

/**
 * Sets the logo: admins and owners only, checked before the image is looked at. The decoding runs
 * as one of the caller's renders (the render gate bounds how many run per user and in all), off the
 * event loop; the route has charged it like a render plus its body's size.
 */
export async function putLogo(
  ctx: AppContext,
  actor: Actor,
  workspaceId: string,
  contentType: string | undefined,
  body: unknown,
): Promise<Branding> {
  requireWorkspaceAdmin(await workspaceAccess(ctx.db, actor, workspaceId));
  const type = logoTypeOf(contentType);
  if (!Buffer.isBuffer(body) || body.length === 0) {
    throw badRequest('The body is empty: send the image itself.', [{ path: '', message: 'must be an image' }]);
  }
  const logo = await ctx.renderGate.run(actor.user.id, () => encodeLogo(body, type));
  await ctx.db.transaction(async (tx) => {
    await repo.upsertLogo(tx, { workspaceId, ...logo, updatedAt: ctx.clock.now() });
    if (!(await repo.bumpBrandingVersion(tx, workspaceId))) throw notFound();
  });
  return brandingView(ctx, workspaceId);
}

/** Removes the logo (admins and owners); removing none is not an error. */
export async function deleteLogo(ctx: AppContext, actor: Actor, workspaceId: string): Promise<void> {
  requireWorkspaceAdmin(await workspaceAccess(ctx.db, actor, workspaceId));
  await ctx.db.transaction(async (tx) => {
    if (await repo.deleteLogo(tx, workspaceId)) await repo.bumpBrandingVersion(tx, workspaceId);
  });
}

/**
 * The logo for the public URL: anyone may fetch a workspace's logo, as anyone may open a share page
 * that shows it (docs/security.md "Images"). `immutable` when the URL names the current version.
 */
export async function publicLogo(
  ctx: AppContext,
  workspaceId: string,
  v: string | undefined,
): Promise<{ png: Buffer; immutable: boolean }> {
  const logo = await repo.findLogo(ctx.db, workspaceId);
  if (!logo) throw notFound();
  return { png: Buffer.from(logo.png.buffer, logo.png.byteOffset, logo.png.byteLength), immutable: isCurrentLogoVersion(v, logo.sha256) };
}

/** A workspace's look, for the PDF and the e-mails (docs/api.md "Branding"). */
export interface BrandingAssets {
  /** null: show no name of the workspace (Chronicle's own line). */
  displayName: string | null;
  /** `#rrggbb`; null: Chronicle's own accent. */
  accentColor: string | null;
  /** Markdown; render it with packages/document's `markdownToSafeHtml`. Empty: no footer. */
  footerMarkdown: string;
  /** The re-encoded logo (PNG, at most 512 x 512), or null. */
  logoPng: Uint8Array | null;
}

export const NO_BRANDING: BrandingAssets = Object.freeze({ displayName: null, accentColor: null, footerMarkdown: '', logoPng: null });

/**
 * The branding of a workspace, with its logo's bytes, in one statement. A report uses the branding
 * of its first workspace (`workspaceIds[0]`); a workspace that is gone has none. No access check:
 * the caller has already decided it may show the report.
 */
export async function brandingOf(db: Db, workspaceId: string): Promise<BrandingAssets> {
  const row = await repo.findBranding(db, workspaceId);
  if (!row) return NO_BRANDING;
  return { displayName: row.displayName, accentColor: row.accentColor, footerMarkdown: row.footer, logoPng: row.logoPng };
}
