/** Hourly rates at four levels (docs/api.md "Rates"): workspace admins and owners manage and read them. */
import type { Actor, AppContext } from '../../context.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { resolvePreset } from '../../render/date-range.js';
import { workspaceRole } from '../../repositories/access.repository.js';
import { findProject } from '../../repositories/projects.repository.js';
import * as repo from '../../repositories/rates.repository.js';
import { rateAccess } from '../access/access.js';
import type { PutRateInput, Rate } from './rates.schemas.js';

function toRate(row: repo.RateRow): Rate {
  return {
    hourly: row.minor === null ? null : { currency: row.currency, minor: row.minor },
    effectiveFrom: row.effectiveFrom,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A level and its workspace's currency, once the caller may manage its rates (404 otherwise). */
export interface Target {
  level: repo.RateLevel;
  currency: string;
}

/** The project's workspace, behind the rates gate: a missing project and a hidden one are the same 404. */
async function projectTarget(ctx: AppContext, actor: Actor, projectId: string) {
  const project = await findProject(ctx.db, projectId);
  if (!project) throw notFound();
  const { currency } = await rateAccess(ctx.db, actor, project.workspaceId);
  return { workspaceId: project.workspaceId, currency };
}

/** The project rate's level. */
export async function projectLevel(ctx: AppContext, actor: Actor, projectId: string): Promise<Target> {
  const { workspaceId, currency } = await projectTarget(ctx, actor, projectId);
  return { level: { workspaceId, projectId, userId: null }, currency };
}

/**
 * A project member rate's level: the user must be one who may log time on the project (a member
 * of it, or an admin/owner of its workspace), else 404.
 */
export async function projectMemberLevel(ctx: AppContext, actor: Actor, projectId: string, userId: string): Promise<Target> {
  const { workspaceId, currency } = await projectTarget(ctx, actor, projectId);
  if (!(await repo.mayLogOnProject(ctx.db, projectId, workspaceId, userId))) throw notFound();
  return { level: { workspaceId, projectId, userId }, currency };
}

/** The workspace rate's level. */
export async function workspaceLevel(ctx: AppContext, actor: Actor, workspaceId: string): Promise<Target> {
  const { currency } = await rateAccess(ctx.db, actor, workspaceId);
  return { level: { workspaceId, projectId: null, userId: null }, currency };
}

/** A workspace member rate's level: the user must be a member of the workspace, else 404. */
export async function workspaceMemberLevel(ctx: AppContext, actor: Actor, workspaceId: string, userId: string): Promise<Target> {
  const { currency } = await rateAccess(ctx.db, actor, workspaceId);
  if (!(await workspaceRole(ctx.db, workspaceId, userId))) throw notFound();
  return { level: { workspaceId, projectId: null, userId }, currency };
}

/** The level's history, oldest date first. */
export async function listRates(ctx: AppContext, { level }: Target): Promise<Rate[]> {
  return (await repo.listRates(ctx.db, level)).map(toRate);
}

/**
 * Sets the level's rate from a date (today in the caller's time zone by default), replacing the
 * row the level has for that date; `hourly` null ends the level from that date. The currency must
 * be the workspace's.
 */
export async function putRate(ctx: AppContext, actor: Actor, { level, currency }: Target, input: PutRateInput): Promise<Rate> {
  if (input.hourly && input.hourly.currency !== currency) {
    throw badRequest('The request is not valid.', [{ path: '/hourly/currency', message: `must be the workspace's currency, ${currency}` }]);
  }
  const now = ctx.clock.now();
  const effectiveFrom = input.effectiveFrom ?? resolvePreset('today', actor.user.timezone, now).from;
  // A project or user removed meanwhile fails a foreign key: the error handler answers 404.
  const row = await repo.putRate(ctx.db, {
    id: newId(),
    ...level,
    level: repo.levelOf(level),
    effectiveFrom,
    currency,
    minor: input.hourly?.minor ?? null,
    createdAt: now,
  });
  return toRate(row);
}
