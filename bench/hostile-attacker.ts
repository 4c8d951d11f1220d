/**
 * One hostile client of the "hostile neighbour" bench scenario, run as a child process of the
 * bench (`node --import tsx bench/hostile-attacker.ts`) so that its own work (building 400 KB
 * bodies, reading 40 MB answers) never delays the event loop of the load generator that measures
 * the share page. Its plan comes as JSON in HOSTILE_PLAN. It prints `ready` once its first
 * requests are under way, and one JSON line of what it did when it stops: at the plan's time
 * bound, after its request bound, on SIGTERM, or when the bench closes its stdin. Every request
 * goes to the plan's URL (the bench server on 127.0.0.1), and every socket is closed on the way out.
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { ATTACK_BOUNDS, INVALID_ITEMS, type AttackName, type AttackPlan, type AttackReport } from './hostile-plan.js';

const plan = JSON.parse(process.env.HOSTILE_PLAN ?? '') as AttackPlan;
const bounds = ATTACK_BOUNDS[plan.attack];
const started = performance.now();
const stopper = new AbortController();
const report: AttackReport = {
  attack: plan.attack,
  sent: 0,
  statuses: {},
  failed: 0,
  inFlightAtStop: 0,
  bytesReceived: 0,
  durationMs: 0,
};

const stop = () => {
  if (!stopper.signal.aborted) stopper.abort();
};
setTimeout(stop, plan.seconds * 1000).unref();
process.once('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.on('data', stop);
process.stdin.resume();

const bearer = { authorization: `Bearer ${plan.token}` };
const jsonBearer = { ...bearer, 'content-type': 'application/json' };

/** One request: counts its answer, reads and drops the body (however large), never throws. */
async function send(path: string, init: RequestInit): Promise<void> {
  report.sent++;
  try {
    const res = await fetch(`${plan.url}${path}`, { ...init, signal: stopper.signal });
    report.statuses[res.status] = (report.statuses[res.status] ?? 0) + 1;
    if (res.body) for await (const chunk of res.body) report.bytesReceived += (chunk as Uint8Array).byteLength;
  } catch {
    if (stopper.signal.aborted) report.inFlightAtStop++;
    else report.failed++;
  }
}

/** `bounds.inFlight` loops sending `next()` back to back until the stop or `bounds.maxRequests`. */
async function loops(next: () => Promise<void>): Promise<void> {
  await Promise.all(
    Array.from({ length: bounds.inFlight }, async () => {
      while (!stopper.signal.aborted && report.sent < bounds.maxRequests) await next();
    }),
  );
}

function invalidBodies(): Promise<void> {
  const body = JSON.stringify({ name: 'x', scopes: Array.from({ length: INVALID_ITEMS }, () => 'x') });
  return loops(() => send(`/api/v1/users/${plan.userId}/tokens`, { method: 'POST', headers: jsonBearer, body }));
}

function diffs(): Promise<void> {
  const query = `from=${plan.fromContentId}&to=${plan.toContentId}`;
  return loops(() => send(`/api/v1/reports/${plan.reportId}/diff?${query}`, { headers: bearer }));
}

function previews(): Promise<void> {
  return loops(() => send('/api/v1/reports/preview', { method: 'POST', headers: jsonBearer, body: plan.previewBody }));
}

/** Random link secrets (unknown to the server) with passwords of a valid length. */
function redeemFlood(): Promise<void> {
  return loops(() =>
    send('/api/v1/password-links/redeem', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: randomBytes(32).toString('base64url'), password: randomBytes(12).toString('base64url') }),
    }),
  );
}

/**
 * Sockets that send their headers, announce a 2,048-byte body, send half of it and stall. A socket
 * the server closes is replaced (up to `bounds.maxRequests` opened in all), as a real client would.
 */
async function slowBodies(): Promise<void> {
  const { port } = new URL(plan.url);
  const half = `{"email":"slow@bench.example","password":"${'p'.repeat(1024 - 41)}`;
  const head =
    `POST /api/v1/sessions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` + `Content-Length: 2048\r\n\r\n`;
  const open = new Set<Socket>();
  report.closedByServer = 0;
  report.firstCloseMs = null;
  await new Promise<void>((resolve) => {
    const openOne = () => {
      if (stopper.signal.aborted || report.sent >= bounds.maxRequests) {
        if (open.size === 0) resolve();
        return;
      }
      report.sent++;
      const opened = performance.now();
      const socket = connect({ host: '127.0.0.1', port: Number(port) });
      open.add(socket);
      socket.on('connect', () => socket.write(head + half));
      socket.on('data', (chunk: Buffer) => {
        report.bytesReceived += chunk.length;
        const status = /^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1];
        if (status) report.statuses[status] = (report.statuses[status] ?? 0) + 1;
      });
      socket.on('error', () => {
        if (!stopper.signal.aborted) report.failed++;
      });
      socket.on('close', () => {
        open.delete(socket);
        if (!stopper.signal.aborted) {
          report.closedByServer = (report.closedByServer ?? 0) + 1;
          const ms = Math.round(performance.now() - opened);
          report.firstCloseMs = report.firstCloseMs === null || report.firstCloseMs === undefined ? ms : Math.min(report.firstCloseMs, ms);
        }
        openOne();
      });
    };
    for (let i = 0; i < bounds.inFlight; i++) openOne();
    stopper.signal.addEventListener('abort', () => {
      report.inFlightAtStop = open.size;
      for (const socket of open) socket.destroy();
      if (open.size === 0) resolve();
    });
  });
}

const attacks: Record<AttackName, () => Promise<void>> = {
  'invalid-bodies': invalidBodies,
  diffs,
  previews,
  'redeem-flood': redeemFlood,
  'slow-bodies': slowBodies,
};

const running = attacks[plan.attack]();
process.stdout.write('ready\n');
await running;
stop();
report.durationMs = Math.round(performance.now() - started);
process.stdout.write(`${JSON.stringify(report)}\n`);
process.exit(0);
