/**
 * A JSON body may spell a lone UTF-16 surrogate (`"\ud800"`), which no database text can hold:
 * stored, it would silently become U+FFFD. Every route refuses such a body with a 400 naming the
 * field (src/http/json-body.ts); a surrogate pair, escaped or not, is an ordinary character.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, newUser, type TestContext } from '../helpers/test-app.js';
import { newWorkspace } from '../helpers/factories.js';

let t: TestContext;
let token: string;
let workspaceId: string;

beforeAll(async () => {
  t = await buildTestApp();
  const ana = await newUser(t, { name: 'Ana' });
  token = ana.token;
  workspaceId = (await newWorkspace(t, ana)).id;
});
afterAll(() => t.close());

const entry = (description: string) =>
  `{"workspaceId":"${workspaceId}","start":"2026-10-05T09:00:00Z","minutes":30,"description":"${description}"}`;
const post = (url: string, raw: string) => t.request('POST', url, { token, raw, headers: { 'content-type': 'application/json' } });

describe('lone surrogates in JSON bodies', () => {
  it.each([
    ['a high surrogate', 'Review \\ud83d'],
    ['a low surrogate', '\\ude00 standup'],
    ['two highs', '\\ud83d\\ud83d'],
  ])('are refused in a single entry (%s), with the field named, and nothing is stored', async (_, description) => {
    const res = await post('/api/v1/time-entries', entry(description));
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.errors).toEqual([{ path: '/description', message: expect.stringContaining('valid Unicode') }]);
    expect((await t.get('/api/v1/time-entries', token)).body).toEqual([]);
  });

  it('are refused in a batch, naming the row, and in object keys', async () => {
    const res = await post('/api/v1/time-entries/batch', `{"entries":[${entry('fine')},${entry('bad \\udc00')}]}`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: '/entries/1/description', index: 1, message: expect.stringContaining('valid Unicode') }]);
    const key = await post('/api/v1/workspaces', '{"name":"W","\\ud800":1}');
    expect(key.status).toBe(400);
    expect(key.body.errors[0].path).toBe('/\ud800');
    expect((await t.get('/api/v1/time-entries', token)).body).toEqual([]);
  });

  it('leave surrogate pairs alone, escaped or not', async () => {
    const res = await post('/api/v1/time-entries/batch', `{"entries":[${entry('Launch \\ud83d\\ude80')},${entry('Launch 🚀')}]}`);
    expect(res.status).toBe(201);
    expect(res.body.entries.map((e: { description: string }) => e.description)).toEqual(['Launch 🚀', 'Launch 🚀']);
  });

  it('leave other bodies to the usual rules: malformed JSON is still a 400 of its own', async () => {
    const res = await post('/api/v1/time-entries', '{"workspaceId":');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});
