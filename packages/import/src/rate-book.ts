/**
 * Loads what rate-check.ts compares an export with: the workspace's currency, and the rates of only
 * the levels the import's entries fall under (the workspace, each user in it, each project the rows
 * name, each project and user together), a few requests at a time. Rates are read only by
 * workspace admins and owners; anyone else gets 404, and then there is no book.
 */
import { ChronicleError, unwrap, type ChronicleClient } from '../../client/src/index.js';
import type { RateEntry } from '../../money/src/index.js';
import type { ImportPlan } from './plan.js';
import type { RateBook } from './rate-check.js';

/** Requests in flight at once. */
const CONCURRENCY = 4;

export interface RateBookOptions {
  workspaceId: string;
  /** The importing user: their own time zone is known; an instance admin reads everyone's. */
  caller: { id: string; timezone: string; instanceAdmin: boolean };
}

type History = readonly { hourly: RateEntry['hourly']; effectiveFrom: string }[];

/** null: the rates are not visible to the caller (404 on the workspace's rates). */
export async function loadRateBook(api: ChronicleClient, plan: ImportPlan, options: RateBookOptions): Promise<RateBook | null> {
  const workspace = { id: options.workspaceId };
  let workspaceRates: History;
  try {
    workspaceRates = await unwrap(api.GET('/api/v1/workspaces/{id}/rates', { params: { path: workspace } }));
  } catch (error) {
    if (error instanceof ChronicleError && error.status === 404) return null;
    throw error;
  }
  const { currency } = await unwrap(api.GET('/api/v1/workspaces/{id}', { params: { path: workspace } }));

  const users = new Set<string>();
  const projects = new Set<string>();
  const pairs = new Map<string, { projectId: string; userId: string }>();
  for (const { userId, project } of plan.toSend) {
    users.add(userId);
    if (!project || !('id' in project)) continue;
    projects.add(project.id);
    pairs.set(`${project.id} ${userId}`, { projectId: project.id, userId });
  }

  const rates: RateEntry[] = rows(workspaceRates, null, null);
  const timezones = new Map([[options.caller.id, options.caller.timezone]]);
  const tasks: (() => Promise<void>)[] = [
    ...[...users].map((userId) => async () => {
      const path = { ...workspace, userId };
      rates.push(...rows(await level(api.GET('/api/v1/workspaces/{id}/members/{userId}/rates', { params: { path } })), null, userId));
    }),
    ...[...projects].map((projectId) => async () => {
      const path = { id: projectId };
      rates.push(...rows(await level(api.GET('/api/v1/projects/{id}/rates', { params: { path } })), projectId, null));
    }),
    ...[...pairs.values()].map(({ projectId, userId }) => async () => {
      const path = { id: projectId, userId };
      rates.push(...rows(await level(api.GET('/api/v1/projects/{id}/members/{userId}/rates', { params: { path } })), projectId, userId));
    }),
    // Only instance admins read other users, time zones included (docs/api.md "Users").
    ...(options.caller.instanceAdmin ? [...users].filter((id) => id !== options.caller.id) : []).map((id) => async () => {
      const user = await level(api.GET('/api/v1/users/{id}', { params: { path: { id } } }));
      if (user) timezones.set(id, user.timezone);
    }),
  ];
  await runLimited(tasks, CONCURRENCY);
  return { currency, rates, timezones };
}

const rows = (history: History | null, projectId: string | null, userId: string | null): RateEntry[] =>
  (history ?? []).map(({ hourly, effectiveFrom }) => ({ projectId, userId, hourly, effectiveFrom }));

/** A level's answer; 404 (a user or project gone meanwhile, or no longer one's to price) is none. */
async function level<T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T | null> {
  try {
    return await unwrap(request);
  } catch (error) {
    if (error instanceof ChronicleError && error.status === 404) return null;
    throw error;
  }
}

/** Runs the tasks with at most `limit` at once; the first failure fails the whole. */
async function runLimited(tasks: readonly (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const task = tasks[next++];
      if (task) await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}
