/**
 * The hostile neighbour scenario: the share page's throughput and p99 alone, then while one
 * client runs each attack in turn (bench/hostile-attacker.ts, a child process). The target: the
 * page keeps at least half its solo throughput and a p99 under 1.5 s in every case.
 *
 * The server runs with its default limits (rate limit included: the attacker has one token).
 * Each attack is compared with a solo window measured just before it: the machine is shared, and
 * its speed drifts between windows. After each attack the server gets a bounded time to go quiet
 * (the page answers quickly and no thread of the process is busy: aborted requests may still
 * be at work inside it); one that does not is killed and started again on the same database, so no
 * attack inherits another's backlog, and the table says so.
 *
 * Windows of 5 s at BENCH_SCALE=small and 10 s at full scale (BENCH_HOSTILE_SECONDS sets them).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { loadWithTail, type TailResult } from './load.js';
import { ATTACK_BOUNDS, type AttackName, type AttackPlan, type AttackReport } from './hostile-plan.js';
import { largeMember, sharePage, type Member } from './hostile-setup.js';
import type { Server } from './server-process.js';

export interface HostileRow {
  attack: string;
  /** The page alone, in the window just before the attack. */
  soloPerSecond: number;
  okPerSecond: number;
  /** okPerSecond against soloPerSecond. */
  ratio: number;
  p99Ms: number;
  pass: boolean | null;
  note: string;
}

export interface HostileOutcome {
  connections: number;
  seconds: number;
  member: Member['made'];
  setupSeconds: number;
  rows: HostileRow[];
}

export interface HostileOptions {
  /** Starts the server (default limits) on the engine's database; called again after a restart. */
  start: () => Promise<Server>;
  adminToken: string;
  /** An ordinary report and its owner's token: the page everyone else reads. */
  pageReportId: string;
  pageOwnerToken: string;
  scale: 'small' | 'full';
  log: (line: string) => void;
}

/**
 * `member`: the attack spends the member's rate budget (API_RATE_LIMIT per minute), so it starts in
 * a minute the set-up and earlier attacks have not spent: the attacker has its whole budget.
 */
const ATTACKS: { name: AttackName; label: string; member?: true }[] = [
  { name: 'invalid-bodies', label: 'huge invalid bodies (100,000 bad scopes)', member: true },
  { name: 'diffs', label: 'diffs of large versions (6 in flight)', member: true },
  { name: 'previews', label: 'largest previews (6 in flight)', member: true },
  { name: 'redeem-flood', label: `anonymous redemption flood (${ATTACK_BOUNDS['redeem-flood'].inFlight} in flight)` },
  { name: 'slow-bodies', label: `slow bodies (${ATTACK_BOUNDS['slow-bodies'].inFlight} sockets)` },
];

/** Connections reading the share page: readers, not a load test of the page. */
const CONNECTIONS = 10;
/** The attack runs this long before the page is measured, so the window sees it at work. */
const RAMP_MS = 1_000;
const PASS_RATIO = 0.5;
const PASS_P99_MS = 1_500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits for the next minute of the wall clock (the rate limit's window), plus a margin. */
const nextMinute = () => sleep(60_000 - (Date.now() % 60_000) + 250);
const round = (n: number, digits = 0) => Math.round(n * 10 ** digits) / 10 ** digits;

export async function runHostile(options: HostileOptions): Promise<HostileOutcome> {
  const { log } = options;
  const seconds = Number(process.env.BENCH_HOSTILE_SECONDS ?? (options.scale === 'small' ? 5 : 10));
  const recoveryMs = (options.scale === 'small' ? 30 : 60) * 1000;
  const entries = options.scale === 'small' ? 5_000 : 20_000;
  log(`   hostile neighbour: ${CONNECTIONS} connections on the share page, ${seconds} s per window`);
  let server = await options.start();
  try {
    const setupStarted = performance.now();
    const page = await sharePage(server, options.pageReportId, options.pageOwnerToken);
    const member = await largeMember(server, options.adminToken, entries, log);
    const setupSeconds = round((performance.now() - setupStarted) / 1000);
    log(`   hostile set-up in ${setupSeconds} s`);
    await warm(server, page);

    const measure = () => loadWithTail({ url: `${server.url}${page}`, connections: CONNECTIONS, seconds });
    const first = await measure();
    const rows: HostileRow[] = [row('none (solo)', first, first, null, '')];
    log(`   ${describe(rows[0]!)}`);
    for (const attack of ATTACKS) {
      if (attack.member) await nextMinute();
      const solo = await measure();
      const plan: AttackPlan = {
        attack: attack.name,
        url: server.url,
        token: member.token,
        userId: member.userId,
        reportId: member.reportId,
        fromContentId: member.fromContentId,
        toContentId: member.toContentId,
        previewBody: member.previewBody,
        seconds: Math.ceil(RAMP_MS / 1000 + seconds + 5),
      };
      const attacker = startAttacker(plan);
      await attacker.ready;
      await sleep(RAMP_MS);
      const during = await measure();
      const report = await attacker.stop();
      const recovered = await waitUntilQuiet(server, page, recoveryMs);
      let recovery =
        recovered === null ? `not quiet within ${recoveryMs / 1000} s: restarted` : `quiet again after ${round(recovered / 1000, 1)} s`;
      if (recovered === null) {
        const t0 = performance.now();
        await server.stop(5_000);
        server = await options.start();
        await warm(server, page);
        recovery += ` in ${round((performance.now() - t0) / 1000, 1)} s`;
      }
      rows.push(row(attack.label, during, solo, true, `${attackerSummary(report)}; ${recovery}`));
      log(`   ${describe(rows.at(-1)!)}`);
    }
    const again = await measure();
    rows.push(row('none (solo, again at the end)', again, first, null, 'against the first solo window: the drift of the machine'));
    log(`   ${describe(rows.at(-1)!)}`);
    return { connections: CONNECTIONS, seconds, member: member.made, setupSeconds, rows };
  } finally {
    await server.stop(15_000);
  }
}

function row(attack: string, result: TailResult, solo: TailResult, judged: true | null, note: string): HostileRow {
  const ratio = solo.okPerSecond > 0 ? result.okPerSecond / solo.okPerSecond : 0;
  const page = [
    result.non2xx > 0 ? `${result.non2xx} non-2xx` : '',
    result.errors > 0 ? `${result.errors} errors` : '',
    result.unanswered > 0 ? `${result.unanswered} unanswered at the end of the window` : '',
  ].filter(Boolean);
  return {
    attack,
    soloPerSecond: round(solo.okPerSecond),
    okPerSecond: round(result.okPerSecond),
    ratio: round(ratio, 2),
    p99Ms: round(result.p99Ms),
    pass: judged === null ? null : ratio >= PASS_RATIO && result.p99Ms < PASS_P99_MS,
    note: [page.length > 0 ? `page: ${page.join(', ')}` : '', note].filter(Boolean).join('; '),
  };
}

function attackerSummary(report: AttackReport | null): string {
  if (!report) return 'attacker: no report';
  const statuses = Object.entries(report.statuses)
    .map(([status, n]) => `${n}x${status}`)
    .join(' ');
  const unit = report.attack === 'slow-bodies' ? 'sockets opened' : 'requests';
  const parts = [
    `attacker: ${report.sent} ${unit}`,
    statuses ? `answers ${statuses}` : 'no answer',
    report.failed > 0 ? `${report.failed} failed` : '',
    report.inFlightAtStop > 0 ? `${report.inFlightAtStop} still waiting at its stop` : '',
    report.closedByServer !== undefined
      ? `${report.closedByServer} closed by the server (first after ${report.firstCloseMs ?? '-'} ms)`
      : '',
  ];
  return parts.filter(Boolean).join(', ');
}

function describe(r: HostileRow): string {
  const pass = r.pass === null ? '' : r.pass ? 'pass' : 'FAIL';
  return `${r.attack}: ${r.okPerSecond} req/s (solo ${r.soloPerSecond}), ${r.ratio}x, p99 ${r.p99Ms} ms ${pass}${r.note ? ` (${r.note})` : ''}`;
}

interface RunningAttacker {
  ready: Promise<void>;
  /** Asks the attacker to stop (it would by itself at its time bound) and reads its report. */
  stop(): Promise<AttackReport | null>;
}

function startAttacker(plan: AttackPlan): RunningAttacker {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/hostile-attacker.ts'], {
    env: { ...process.env, HOSTILE_PLAN: JSON.stringify(plan) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let report: AttackReport | null = null;
  // 'close', not 'exit': the report line is read before the streams close.
  const exited = new Promise<void>((resolve) =>
    child.once('close', () => {
      resolve();
    }),
  );
  const ready = new Promise<void>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (line === 'ready') resolve();
      else if (line.startsWith('{')) report = JSON.parse(line) as AttackReport;
    });
    void exited.then(() => {
      reject(new Error(`the ${plan.attack} attacker exited before it was ready`));
    });
  });
  return {
    ready,
    stop: async () => {
      child.stdin.end();
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
      return report;
    },
  };
}

/** Answers the page has to give in a row, each within QUICK_MS, for the server to count as quiet. */
const QUICK_IN_A_ROW = 3;
const QUICK_MS = 200;
/**
 * The most threads of the server (main, render workers, libuv pool) that may be running or
 * waiting for a core, on average, for it to count as quiet. Counted rather than the CPU time it
 * gets, which on a machine busy with other work stays low while the server is still at work.
 */
const QUIET_RUNNABLE = 0.3;

/** Threads of the process that are running or runnable now. */
function runnableThreads(pid: number): number {
  let runnable = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'R') runnable++;
    } catch {
      // the thread ended meanwhile
    }
  }
  return runnable;
}

/** The mean number of runnable threads of the process over a second. */
async function runnableOverASecond(pid: number): Promise<number> {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    sum += runnableThreads(pid);
    await sleep(100);
  }
  return sum / 10;
}

/**
 * Milliseconds until the server is quiet again (the page answers quickly and no thread of
 * the process is busy), or null when it is not within `boundMs`.
 */
async function waitUntilQuiet(server: Server, page: string, boundMs: number): Promise<number | null> {
  const started = performance.now();
  let quick = 0;
  while (performance.now() - started < boundMs) {
    const t0 = performance.now();
    try {
      const res = await fetch(`${server.url}${page}`, { signal: AbortSignal.timeout(Math.min(5_000, boundMs)) });
      await res.arrayBuffer();
      quick = res.status === 200 && performance.now() - t0 < QUICK_MS ? quick + 1 : 0;
    } catch {
      quick = 0;
    }
    if (quick >= QUICK_IN_A_ROW) {
      if ((await runnableOverASecond(server.pid)) < QUIET_RUNNABLE) return performance.now() - started;
      quick = 0;
    } else if (quick === 0) await sleep(250);
  }
  return null;
}

/** A few hundred views first: the page cache and the JIT, as a page that readers have been opening. */
async function warm(server: Server, page: string): Promise<void> {
  for (let i = 0; i < 200; i++) await (await fetch(`${server.url}${page}`)).arrayBuffer();
}

export function printHostile(engine: string, scale: string, outcome: HostileOutcome, log: (line: string) => void): void {
  log(`\n${engine} (${scale} scale): hostile neighbour, share page with ${outcome.connections} connections, ${outcome.seconds} s windows`);
  const m = outcome.member;
  log(
    `member: ${m.entries.toLocaleString('en-US')} entries${m.entriesRefusedAt === null ? '' : ' (refused beyond)'}, report of ${m.period}, ${m.markdownMiB} MiB; alone, one diff ${m.diffMs} ms, one preview ${m.previewMs} ms; set-up ${outcome.setupSeconds} s`,
  );
  log(
    `${'attack'.padEnd(44)} ${'solo req/s'.padStart(10)} ${'share req/s'.padStart(11)} ${'ratio'.padStart(6)} ${'p99 ms'.padStart(8)}  pass`,
  );
  for (const r of outcome.rows) {
    const pass = r.pass === null ? '' : r.pass ? 'yes' : 'NO';
    log(
      `${r.attack.padEnd(44)} ${`${r.soloPerSecond}`.padStart(10)} ${`${r.okPerSecond}`.padStart(11)} ${`${r.ratio}x`.padStart(6)} ${`${r.p99Ms}`.padStart(8)}  ${pass.padEnd(4)}${r.note ? `  (${r.note})` : ''}`,
    );
  }
}
