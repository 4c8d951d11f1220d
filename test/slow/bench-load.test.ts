/**
 * The bench's load generator (bench/load.ts): its latencies are the requests' own, timed to the
 * microsecond, never autocannon's whole milliseconds, so a ratio of two latencies of a few
 * milliseconds is not a matter of rounding. A server on loopback answers each request at once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load, loadWithTail } from '../../bench/load.js';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'text/plain' });
    res.end('answered');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('bench load', () => {
  it('times each 2xx answer to the microsecond', async () => {
    const result = await load({ url: `${base}/`, connections: 2, seconds: 1 });
    expect(result.ok).toBeGreaterThan(0);
    expect(result.non2xx).toBe(0);
    expect(result.p50Ms).toBeGreaterThan(0);
    expect(result.p99Ms).toBeGreaterThanOrEqual(result.p50Ms);
    // A histogram of whole milliseconds reads 0 or 1 here.
    expect(Number.isInteger(result.p50Ms) && Number.isInteger(result.p99Ms)).toBe(false);
  });

  it('leaves answers other than 2xx out of the latencies, and counts them', async () => {
    const result = await load({ url: `${base}/missing`, connections: 2, seconds: 1 });
    expect(result.ok).toBe(0);
    expect(result.non2xx).toBeGreaterThan(0);
    expect([result.p50Ms, result.p99Ms]).toEqual([0, 0]);
  });

  it('counts every answer of a window, whatever its status, with the tail', async () => {
    const result = await loadWithTail({ url: `${base}/missing`, connections: 2, seconds: 1 });
    expect(result.non2xx).toBeGreaterThan(0);
    expect(result.ok).toBe(0);
    // autocannon ends its run with each connection's last request unanswered: at most one each.
    expect(result.unanswered).toBeLessThanOrEqual(2);
    expect(result.p50Ms).toBeGreaterThan(0);
    expect(Number.isInteger(result.p50Ms)).toBe(false);
  });
});
