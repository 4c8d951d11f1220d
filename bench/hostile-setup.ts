/**
 * What the hostile neighbour scenario needs on the server, made through the API so that every
 * limit the server enforces applies: a share link to an ordinary version (the page everyone else
 * reads), and a member whose own report is as large as the server lets a member make, with two
 * versions of it that differ in lines spread over the whole document.
 */
import { CreateTimeEntryBody, MAX_BATCH } from '../src/modules/time-entries/time-entries.schemas.js';
import type { Server } from './server-process.js';

export interface Member {
  userId: string;
  token: string;
  reportId: string;
  /** The two versions the diff attack compares. */
  fromContentId: string;
  toContentId: string;
  /** POST /reports/preview over the member's whole report. */
  previewBody: string;
  /** What was made, for the report: entries, document size, one diff's and one preview's time. */
  made: { entries: number; entriesRefusedAt: number | null; period: string; markdownMiB: number; diffMs: number; previewMs: number };
}

interface Answer {
  status: number;
  body: any;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One API call; a 429 waits for its Retry-After (at most three times, at most 61 s each). */
export async function call(server: Server, method: string, path: string, token: string | null, body?: unknown): Promise<Answer> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status === 429 && attempt < 3) {
      await sleep(Math.min(61, Number(res.headers.get('retry-after') ?? 1)) * 1000);
      continue;
    }
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed };
  }
}

async function ok(server: Server, method: string, path: string, token: string | null, body?: unknown): Promise<any> {
  const answer = await call(server, method, path, token, body);
  if (answer.status >= 400) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  return answer.body;
}

/** A share link to `reportId`, minted by its owner; returns the page's path. */
export async function sharePage(server: Server, reportId: string, ownerToken: string): Promise<string> {
  const share = await ok(server, 'POST', `/api/v1/reports/${reportId}/shares`, ownerToken, {});
  return `/share/${share.token as string}`;
}

const DAY_MS = 86_400_000;
const YEAR_START = Date.UTC(2026, 0, 1, 8);
const WORDS = ['review', 'fix', 'plan', 'write', 'deploy', 'design', 'test', 'refactor', 'meet', 'support', 'invoice', 'export', 'search'];
/** About one line in this many of the second version differs from the first, spread evenly. */
const DIFF_LINES = 500;

/** A description of exactly `length` characters, different for every entry, of plain words (nothing to escape). */
function description(i: number, length: number): string {
  let text = `Entry ${i}:`;
  for (let w = i; text.length < length; w += 7) text += ` ${WORDS[w % WORDS.length]}`;
  return text.slice(0, length);
}

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * A member (made by the instance admin) in a workspace of their own, logging up to `entries`
 * entries with descriptions of the longest length allowed, spread over 2026, until the server
 * refuses more; then the largest Timesheet report over them the server renders (the period is
 * halved while it refuses), and a second version leaving out about DIFF_LINES entries spread
 * over the year (a tag filter), so the diff's line edits are spread over the whole document.
 */
export async function largeMember(server: Server, adminToken: string, entries: number, log: (line: string) => void): Promise<Member> {
  const stamp = Date.now().toString(36);
  const user = await ok(server, 'POST', '/api/v1/users', adminToken, { name: 'Hostile member', email: `hostile-${stamp}@bench.example` });
  const token = (await ok(server, 'POST', `/api/v1/users/${user.id}/tokens`, adminToken, { name: 'bench', scopes: ['read', 'write'] }))
    .token as string;
  const workspace = await ok(server, 'POST', '/api/v1/workspaces', token, { name: `Hostile ${stamp}` });

  // The longest description the API accepts: what a member bent on cost would send.
  const longest = (CreateTimeEntryBody.properties.description as { maxLength?: number }).maxLength ?? 2_000;
  const every = Math.max(2, Math.round(entries / DIFF_LINES));
  const spacing = (365 * DAY_MS) / entries;
  let made = 0;
  let refusedAt: number | null = null;
  while (made < entries) {
    const batch = Array.from({ length: Math.min(MAX_BATCH, entries - made) }, (_, k) => {
      const i = made + k;
      return {
        workspaceId: workspace.id,
        start: new Date(YEAR_START + Math.floor(i * spacing)).toISOString(),
        minutes: 15 + (i % 240),
        description: description(i, longest),
        tags: [i % every === 0 ? 'spread' : 'kept'],
      };
    });
    const answer = await call(server, 'POST', '/api/v1/time-entries/batch', token, { entries: batch });
    if (answer.status >= 400) {
      // A quota (or any other refusal) ends the logging: the member has made all they may.
      refusedAt = made;
      log(`   the server refused more entries at ${made}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
      break;
    }
    made += batch.length;
  }
  log(`   member logged ${made.toLocaleString('en-US')} entries of ${longest.toLocaleString('en-US')} characters`);

  const templates = (await ok(server, 'GET', '/api/v1/templates', token)) as { id: string; name: string }[];
  const timesheet = templates.find((t) => t.name === 'Timesheet')!.id;
  const filtersOf = (days: number, tags?: string[]) => ({
    workspaceIds: [workspace.id],
    dateRange: { from: isoDate(YEAR_START), to: isoDate(YEAR_START + (days - 1) * DAY_MS) },
    ...(tags ? { tags } : {}),
  });
  let days = 365;
  let report: any = null;
  for (let attempt = 0; attempt < 8 && !report; attempt++) {
    const answer = await call(server, 'POST', '/api/v1/reports', token, { name: 'Big', templateId: timesheet, filters: filtersOf(days) });
    if (answer.status === 201) report = answer.body;
    else {
      log(`   a report of ${days} days was refused (${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}); halving`);
      days = Math.max(1, Math.floor(days / 2));
    }
  }
  if (!report) throw new Error('the server refused every report of the member');
  const markdownMiB = Math.round(((report.renderedMarkdown as string).length / 1024 / 1024) * 10) / 10;
  const second = await ok(server, 'PATCH', `/api/v1/reports/${report.id}`, token, {
    name: 'Big',
    templateId: timesheet,
    filters: filtersOf(days, ['kept']),
  });
  const previewBody = JSON.stringify({ name: 'Big', templateId: timesheet, filters: filtersOf(days) });

  // One of each, timed, so the table can say what one attacking request costs when nothing else runs.
  let t0 = performance.now();
  await ok(server, 'GET', `/api/v1/reports/${report.id}/diff?from=${report.reportContentId}&to=${second.reportContentId}`, token);
  const diffMs = Math.round(performance.now() - t0);
  t0 = performance.now();
  const preview = await call(server, 'POST', '/api/v1/reports/preview', token, JSON.parse(previewBody));
  const previewMs = Math.round(performance.now() - t0);
  log(`   report of ${days} days, ${markdownMiB} MiB of Markdown; one diff ${diffMs} ms, one preview ${previewMs} ms (${preview.status})`);
  return {
    userId: user.id,
    token,
    reportId: report.id,
    fromContentId: report.reportContentId,
    toContentId: second.reportContentId,
    previewBody,
    made: { entries: made, entriesRefusedAt: refusedAt, period: `${days} days`, markdownMiB, diffMs, previewMs },
  };
}
