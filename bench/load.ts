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
  /** Latencies of the 2xx answers, in milliseconds to the microsecond (see `latencyRecorder`). */
  p50Ms: number;
  p99Ms: number;
  ok: number;
  non2xx: number;
  errors: number;
}

/**
 * Each request's latency, timed by the load generator itself from the moment its client writes
 * the request to the moment the answer is complete (one request in flight per connection).
 * autocannon's own figures come from a histogram of whole milliseconds, which makes a 0.4 ms
 * baseline 1 ms and a ratio of two sub-millisecond or few-millisecond latencies a matter of
 * rounding; these keep the microseconds.
 */
function latencyRecorder(windowEnd = Number.POSITIVE_INFINITY) {
  const latencies: number[] = [];
  const pending = new Map<object, number>();
  let ok = 0;
  let non2xx = 0;
  return {
    setupClient(client: NodeJS.EventEmitter): void {
      client.on('request', () => pending.set(client, performance.now()));
      client.on('response', (status: number) => {
        const now = performance.now();
        const since = pending.get(client);
        pending.delete(client);
        if (since === undefined || since > windowEnd) return;
        const success = status >= 200 && status < 300;
        if (now <= windowEnd) {
          if (success) ok++;
          else non2xx++;
        }
        if (success || windowEnd !== Number.POSITIVE_INFINITY) latencies.push(now - since);
      });
    },
    /** Requests written before the window closed and never answered, by when each was written. */
    unanswered: () => [...pending.values()].filter((since) => since <= windowEnd),
    latencies,
    counts: () => ({ ok, non2xx }),
  };
}

/** The `q` quantile of `latencies` (sorted here), 0 when there are none. */
function quantile(latencies: number[], q: number): number {
  latencies.sort((a, b) => a - b);
  return latencies[Math.max(0, Math.ceil(q * latencies.length) - 1)] ?? 0;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const recorder = latencyRecorder();
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(options.body === undefined ? {} : { body: options.body }),
    connections: options.connections,
    duration: options.seconds,
    timeout: 30,
    setupClient: (client: NodeJS.EventEmitter) => {
      recorder.setupClient(client);
    },
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: quantile(recorder.latencies, 0.5),
    p99Ms: quantile(recorder.latencies, 0.99),
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

/**
 * Like `load`, over a window: every request written within it counts, whatever its status, and
 * one still unanswered when it closes counts at the time it has waited so far.
 */
export async function loadWithTail(options: LoadOptions): Promise<TailResult> {
  const windowEnd = performance.now() + options.seconds * 1000;
  const recorder = latencyRecorder(windowEnd);
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
      recorder.setupClient(client);
    },
  });
  const closed = Math.max(windowEnd, performance.now());
  const unanswered = recorder.unanswered();
  for (const since of unanswered) recorder.latencies.push(closed - since);
  const { ok, non2xx } = recorder.counts();
  return {
    okPerSecond: ok / options.seconds,
    p99Ms: quantile(recorder.latencies, 0.99),
    p50Ms: quantile(recorder.latencies, 0.5),
    ok,
    non2xx,
    errors: result.errors + result.timeouts,
    unanswered: unanswered.length,
  };
}
