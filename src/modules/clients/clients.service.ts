/** A workspace's clients (docs/api.md "Clients"): members read them, admins and owners manage them. */
import type { Actor, AppContext } from '../../context.js';
import { pgConstraint, pgErrorCode } from '../../db/errors.js';
import { conflict, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import * as repo from '../../repositories/clients.repository.js';
import { clientAccess, requireWorkspaceAdmin, workspaceAccess } from '../access/access.js';
import type { Client, CreateClientInput, PatchClientInput } from './clients.schemas.js';

function toClient(row: repo.ClientRow): Client {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    archived: row.archived,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * A name taken in the workspace is a 409. The unique index decides, not a lookup before the write,
 * so two requests for one name at once get one 201 and one 409.
 */
async function guardName<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (pgErrorCode(error) === '23505' && pgConstraint(error) === repo.CLIENT_NAME_KEY) {
      throw conflict('The workspace already has a client with this name (names are compared ignoring case).');
    }
    throw error;
  }
}

/** The workspace's clients as the JSON text the API answers (clients.repository.ts `clientsJson`). */
export async function listClients(ctx: AppContext, actor: Actor, workspaceId: string): Promise<string> {
  await workspaceAccess(ctx.db, actor, workspaceId);
  return repo.clientsJson(ctx.db, workspaceId);
}

export async function createClient(ctx: AppContext, actor: Actor, workspaceId: string, input: CreateClientInput): Promise<Client> {
  requireWorkspaceAdmin(await workspaceAccess(ctx.db, actor, workspaceId));
  const now = ctx.clock.now();
  // A workspace deleted meanwhile fails the foreign key: the error handler answers 404.
  const row = await guardName(() =>
    repo.insertClient(ctx.db, { id: newId(), workspaceId, name: input.name, archived: false, createdAt: now, updatedAt: now }),
  );
  return toClient(row);
}

export async function patchClient(ctx: AppContext, actor: Actor, id: string, input: PatchClientInput): Promise<Client> {
  const { client, access } = await clientAccess(ctx.db, actor, id);
  requireWorkspaceAdmin(access);
  const patch = {
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(input.archived === undefined ? {} : { archived: input.archived }),
  };
  if (Object.keys(patch).length === 0) return toClient(client);
  const row = await guardName(() => repo.updateClient(ctx.db, id, { ...patch, updatedAt: ctx.clock.now() }));
  if (!row) throw notFound();
  return toClient(row);
}

/** Its projects stay, without a client (the database sets their clientId to null). */
export async function deleteClient(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  const { access } = await clientAccess(ctx.db, actor, id);
  requireWorkspaceAdmin(access);
  await repo.deleteClient(ctx.db, id);
}
