/**
 * packages/client against a running Chronicle: a real server listening on a port, driven only
 * through the typed client, from an admin making a user to a reaction on a sent report.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ChronicleError, createChronicleClient, pages, unwrap, type ChronicleClient } from '../../packages/client/src/index.js';
import { ADMIN_TOKEN, buildTestApp, type TestContext } from '../helpers/test-app.js';

let t: TestContext;
let baseUrl: string;
let admin: ChronicleClient;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  admin = createChronicleClient({ baseUrl, token: ADMIN_TOKEN });
});
afterAll(() => t.close());

/** A user and a client acting as them, made by the admin through the client. */
async function person(name: string): Promise<{ id: string; client: ChronicleClient }> {
  const email = `${name.toLowerCase()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const user = await unwrap(admin.POST('/api/v1/users', { body: { name, email, timezone: 'Europe/Berlin' } }));
  const token = await unwrap(
    admin.POST('/api/v1/users/{id}/tokens', { params: { path: { id: user.id } }, body: { scopes: ['read', 'write'] } }),
  );
  return { id: user.id, client: createChronicleClient({ baseUrl, token: token.token }) };
}

describe('the typed client against a running server', () => {
  test('from a new user to a reaction on a sent report', async () => {
    const ada = await person('Ada');
    const grace = await person('Grace');
    const me = await unwrap(ada.client.GET('/api/v1/me'));
    expect(me).toMatchObject({ id: ada.id, name: 'Ada', timezone: 'Europe/Berlin' });

    const workspace = await unwrap(ada.client.POST('/api/v1/workspaces', { body: { name: 'Studio' } }));
    await unwrap(
      ada.client.PUT('/api/v1/workspaces/{id}/members/{userId}', {
        params: { path: { id: workspace.id, userId: grace.id } },
        body: { role: 'member' },
      }),
    );
    const project = await unwrap(
      ada.client.POST('/api/v1/workspaces/{id}/projects', { params: { path: { id: workspace.id } }, body: { name: 'Website' } }),
    );
    const batch = await unwrap(
      ada.client.POST('/api/v1/time-entries/batch', {
        body: {
          entries: [1, 2, 3].map((day) => ({
            workspaceId: workspace.id,
            projectId: project.id,
            start: `2026-03-0${day}T09:00:00+01:00`,
            minutes: 60 * day,
            description: `Day ${day}`,
            tags: ['client'],
          })),
        },
      }),
    );
    expect(batch.entries.map((e) => e.minutes)).toEqual([60, 120, 180]);

    const templates = await unwrap(ada.client.GET('/api/v1/templates'));
    const timesheet = templates.find((template) => template.builtIn && template.name === 'Timesheet');
    expect(timesheet).toBeDefined();
    const report = await unwrap(
      ada.client.POST('/api/v1/reports', {
        body: {
          name: 'March',
          templateId: timesheet!.id,
          filters: { workspaceIds: [workspace.id], dateRange: { from: '2026-03-01', to: '2026-03-31' } },
        },
      }),
    );
    expect(report.version).toBe(1);
    expect(report.renderedMarkdown).toContain('Day 2');

    await unwrap(
      ada.client.POST('/api/v1/reports/{id}/send', {
        params: { path: { id: report.id } },
        body: { recipientUserIds: [grace.id], message: 'For review' },
      }),
    );
    const [message] = await unwrap(grace.client.GET('/api/v1/inbox'));
    expect(message).toMatchObject({ reportId: report.id, message: 'For review', readAt: null });

    const contentId = message!.reportContentId;
    await unwrap(
      grace.client.POST('/api/v1/report-contents/{id}/comments', {
        params: { path: { id: contentId } },
        body: { body: 'Looks **right**.' },
      }),
    );
    await unwrap(
      grace.client.PUT('/api/v1/report-contents/{id}/reactions', { params: { path: { id: contentId } }, body: { emoji: '+1' } }),
    );
    const discussion = await unwrap(ada.client.GET('/api/v1/report-contents/{id}/discussion', { params: { path: { id: contentId } } }));
    expect(discussion.comments.map((c) => c.body)).toEqual(['Looks **right**.']);
    expect(JSON.stringify(discussion.reactions)).toContain('+1');

    const share = await unwrap(
      ada.client.POST('/api/v1/reports/{id}/shares', { params: { path: { id: report.id } }, body: { passcode: 'open sesame' } }),
    );
    expect(share.url).toMatch(/\/share\//);
  });

  test('an error answer is a ChronicleError with the problem and its field errors', async () => {
    const ada = await person('Ada');
    const notFound = await unwrap(ada.client.GET('/api/v1/reports/{id}', { params: { path: { id: 'no-such-report' } } })).catch(
      (e: unknown) => e,
    );
    expect(notFound).toBeInstanceOf(ChronicleError);
    expect(notFound).toMatchObject({ status: 404, type: 'urn:chronicle:problem:not_found', errors: [] });

    const invalid = await unwrap(ada.client.POST('/api/v1/workspaces', { body: { name: '' } })).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ChronicleError);
    const error = invalid as ChronicleError;
    expect(error.status).toBe(400);
    expect(error.errors.map((e) => e.path)).toEqual(['/name']);
    expect(error.message).toMatch(/^400 /);

    const anonymous = createChronicleClient({ baseUrl });
    await expect(unwrap(anonymous.GET('/api/v1/me'))).rejects.toMatchObject({ name: 'ChronicleError', status: 401 });
  });

  test('pages walks a paged list to its end, page by page', async () => {
    const ada = await person('Ada');
    const workspace = await unwrap(ada.client.POST('/api/v1/workspaces', { body: { name: 'Paged' } }));
    const entries = Array.from({ length: 7 }, (_, i) => ({
      workspaceId: workspace.id,
      start: `2026-04-0${i + 1}T08:00:00Z`,
      minutes: 10 + i,
    }));
    await unwrap(ada.client.POST('/api/v1/time-entries/batch', { body: { entries } }));

    const requests: string[] = [];
    const counting = createChronicleClient({
      baseUrl,
      token: (await unwrap(admin.POST('/api/v1/users/{id}/tokens', { params: { path: { id: ada.id } }, body: { scopes: ['read'] } })))
        .token,
      fetch: (input: Request) => {
        requests.push(new URL(input.url).search);
        return fetch(input);
      },
    });
    const seen: number[] = [];
    for await (const entry of pages(counting, '/api/v1/time-entries', { query: { workspaceId: workspace.id, limit: 3 } }))
      seen.push(entry.minutes);
    expect(seen.sort((a, b) => a - b)).toEqual([10, 11, 12, 13, 14, 15, 16]);
    expect(requests).toHaveLength(3);
    expect(requests.map((q) => new URLSearchParams(q).get('offset'))).toEqual(['0', '3', '6']);

    // A list under a path parameter cannot be walked without it (checked by the type checker).
    // @ts-expect-error: params.path.id is required for /reports/{id}/sends
    const missing = pages(counting, '/api/v1/reports/{id}/sends');
    await expect(missing.next()).rejects.toMatchObject({ name: 'ChronicleError', status: 404 });

    // A list that fits one page takes one request.
    requests.length = 0;
    const all = [];
    for await (const entry of pages(counting, '/api/v1/time-entries', { query: { workspaceId: workspace.id } })) all.push(entry);
    expect(all).toHaveLength(7);
    expect(requests).toHaveLength(1);
  });
});
