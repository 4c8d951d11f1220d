/** HTTP load with autocannon as a library, and the bare baseline server it is compared with. */
import { spawn } from 'node:child_process';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { BaselineRoute } from './baseline-server.js';

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  seconds: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  ok: number;
  non2xx: number;
  errors: number;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(options.body === undefined ? {} : { body: options.body }),
    connections: options.connections,
    duration: options.seconds,
    timeout: 30,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

export interface Baseline {
  url: string;
  stop(): void;
}

/** Starts the bare server with `routes` in a process of its own. */
export async function startBaseline(routes: BaselineRoute[], db?: string): Promise<Baseline> {
  const file = join(mkdtempSync(join(tmpdir(), 'chronicle-baseline-')), 'routes.json');
  writeFileSync(file, JSON.stringify(routes));
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/baseline-server.ts'], {
    env: { ...process.env, BASELINE_ROUTES: file, ...(db ? { BASELINE_DB: db } : {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve(Number(line));
    });
    child.once('exit', (code) => {
      reject(new Error(`the baseline server exited with ${code}`));
    });
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

/**
 * Captures what the real endpoint answers, as a baseline route answering the same bytes: as sent,
 * compressed where the request's Accept-Encoding had it compressed (fetch would decode them).
 */
export async function capture(
  url: string,
  route: Omit<BaselineRoute, 'status' | 'contentType' | 'body' | 'contentEncoding'>,
  init: { headers?: Record<string, string>; body?: string } = {},
): Promise<BaselineRoute> {
  const res = await new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = httpRequest(url, { method: route.method, headers: init.headers ?? {} }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: Buffer.concat(chunks) });
      });
      answer.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
  if (res.status >= 400) throw new Error(`${route.method} ${url}: ${res.status} ${res.body.toString().slice(0, 300)}`);
  const encoding = res.headers['content-encoding'];
  return {
    ...route,
    status: res.status,
    contentType: res.headers['content-type'] ?? 'application/octet-stream',
    body: res.body.toString('base64'),
    ...(encoding ? { contentEncoding: encoding } : {}),
  };
}

export interface TailResult {
  /** 2xx answers completed within the window, per second. */
  okPerSecond: number;
  /**
   * 99th percentile latency in ms over every request of the window, counting a request still
   * unanswered when the window closed at the time it had waited so far (a lower bound): a
   * server that stops answering shows a long p99, not an empty one.
   */
  p99Ms: number;
  p50Ms: number;
  ok: number;
  non2xx: number;
  errors: number;
  /** Requests still unanswered when the window closed. */
  unanswered: number;
}

/** Like `load`, with the latency of every request taken by the load generator itself. */
export async function loadWithTail(options: LoadOptions): Promise<TailResult> {
  const latencies: number[] = [];
  const pending = new Map<object, number>();
  let ok = 0;
  let non2xx = 0;
  const t0 = performance.now();
  const windowEnd = t0 + options.seconds * 1000;
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(options.body === undefined ? {} : { body: options.body }),
    connections: options.connections,
    duration: options.seconds,
    // Longer than the window: a slow answer is a latency here, never a timeout.
    timeout: Math.max(30, options.seconds * 3),
    setupClient: (client: NodeJS.EventEmitter) => {
      // One request in flight per connection: it starts when the client writes it.
      client.on('request', () => pending.set(client, performance.now()));
      client.on('response', (status: number) => {
        const now = performance.now();
        const since = pending.get(client);
        pending.delete(client);
        if (since === undefined || since > windowEnd) return;
        latencies.push(now - since);
        if (now <= windowEnd) {
          if (status >= 200 && status < 300) ok++;
          else non2xx++;
        }
      });
    },
  });
  const closed = Math.max(windowEnd, performance.now());
  let unanswered = 0;
  for (const since of pending.values()) {
    if (since > windowEnd) continue;
    latencies.push(closed - since);
    unanswered++;
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.max(0, Math.ceil(q * latencies.length) - 1)] ?? 0;
  return {
    okPerSecond: ok / options.seconds,
    p99Ms: at(0.99),
    p50Ms: at(0.5),
    ok,
    non2xx,
    errors: result.errors + result.timeouts,
    unanswered,
  };
}
