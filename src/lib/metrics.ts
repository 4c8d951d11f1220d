/**
 * Prometheus metrics (docs/operations.md "Metrics"), with prom-client. Each app has a registry of
 * its own (tests build many apps in one process); the process-wide default metrics (CPU, memory,
 * event-loop lag, GC) are collected once per process and merged in when scraped.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the gauges read at scrape time. */
export interface MetricSources {
  renderQueue(): { workers: number; busy: number; queued: number };
  /** Connections of the database pool; null for an engine without one (embedded PGlite). */
  databasePool(): { total: number; idle: number; waiting: number } | null;
  /** Report renders admitted by the render gate and waiting at it. */
  renderGate(): { running: number; waiting: number };
  /** PBKDF2 slots in use, and unlocks and mints waiting for one. */
  passcodeSlots(): { inUse: number; waitingUnlocks: number; waitingMints: number };
  /** scrypt slots in use, and password checks and hashes waiting for one. */
  passwordSlots(): { inUse: number; waiting: number };
  /** Rate-limit refusals held before they are answered (refusal-delay.ts). */
  refusalsHeld(): number;
  /** The event loop's recent delay, in ms (event-loop-pressure.ts). */
  eventLoopDelayMs(): number;
}

export type RenderKind = 'report' | 'page' | 'liquid' | 'diff' | 'analyze' | 'meta' | 'file';

export interface Metrics {
  readonly registry: Registry;
  readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly renders: Counter<'kind' | 'outcome'>;
  readonly renderDuration: Histogram<'kind'>;
  readonly sends: Counter;
  /** Finished runs of schedules by outcome (delivery.md §1). */
  readonly scheduleRuns: Counter<'status'>;
  /** Attempts at outgoing mail this process finished, by outcome (delivery.md §3). */
  readonly mailAttempts: Counter<'kind' | 'outcome'>;
  readonly shareViews: Counter;
  readonly passcodeFailures: Counter<'reason'>;
  readonly overloadRefusals: Counter;
  /** The embedded engine's upkeep statements by operation and outcome (embedded-upkeep.ts). */
  readonly databaseUpkeep: Counter<'operation' | 'outcome'>;
  /** The whole text of a scrape: this app's metrics and the process's. */
  render(): Promise<{ contentType: string; text: string }>;
}

let processRegistry: Registry | null = null;

/** Default metrics register listeners that are never removed, so they are made once per process. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'chronicle_' });
  }
  return processRegistry;
}

export function createMetrics(sources: MetricSources): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const httpDuration = new Histogram({
    name: 'chronicle_http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const renders = new Counter({
    name: 'chronicle_renders_total',
    help: 'Renders in the worker pool by kind (report, page, liquid, diff, analyze, meta, file) and outcome (ok, failed).',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  });
  const renderDuration = new Histogram({
    name: 'chronicle_render_duration_seconds',
    help: 'Time from asking the render pool to its answer, queueing included, by kind.',
    labelNames: ['kind'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const sends = new Counter({ name: 'chronicle_report_sends_total', help: 'Reports sent (one per send request).', registers });
  const scheduleRuns = new Counter({
    name: 'chronicle_schedule_runs_total',
    help: 'Runs of report schedules this process finished, by status (succeeded, partial, failed, skipped).',
    labelNames: ['status'] as const,
    registers,
  });
  const mailAttempts = new Counter({
    name: 'chronicle_mail_attempts_total',
    help: 'Attempts at outgoing mail this process finished, by kind and outcome (sent, kept, retry, failed).',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  });
  const shareViews = new Counter({ name: 'chronicle_share_views_total', help: 'Share pages served and counted as views.', registers });
  const passcodeFailures = new Counter({
    name: 'chronicle_share_passcode_failures_total',
    help: 'Passcode attempts refused: a wrong passcode, or too many attempts (rate_limited).',
    labelNames: ['reason'] as const,
    registers,
  });
  const overloadRefusals = new Counter({
    name: 'chronicle_overload_refusals_total',
    help: 'Requests refused with 503 because the event loop was further behind than OVERLOAD_EVENT_LOOP_DELAY_MS.',
    registers,
  });
  const databaseUpkeep = new Counter({
    name: 'chronicle_database_upkeep_total',
    help: 'Upkeep of the embedded database by operation (vacuum, analyze, vacuum_analyze, checkpoint) and outcome (ok, failed).',
    labelNames: ['operation', 'outcome'] as const,
    registers,
  });
  new Gauge({
    name: 'chronicle_event_loop_delay_seconds',
    help: 'The longest event-loop delay of the last second (what OVERLOAD_EVENT_LOOP_DELAY_MS is compared with).',
    registers,
    collect() {
      this.set(sources.eventLoopDelayMs() / 1000);
    },
  });
  new Gauge({
    name: 'chronicle_render_gate_renders',
    help: 'Report renders admitted by the render gate (running) and waiting at it (waiting).',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const { running, waiting } = sources.renderGate();
      this.set({ state: 'running' }, running);
      this.set({ state: 'waiting' }, waiting);
    },
  });
  new Gauge({
    name: 'chronicle_passcode_slots',
    help: 'PBKDF2 slots in use, and passcode unlocks and mints waiting for one.',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const slots = sources.passcodeSlots();
      this.set({ state: 'in_use' }, slots.inUse);
      this.set({ state: 'waiting_unlock' }, slots.waitingUnlocks);
      this.set({ state: 'waiting_mint' }, slots.waitingMints);
    },
  });
  new Gauge({
    name: 'chronicle_password_slots',
    help: 'scrypt slots in use, and password checks and hashes (sign-in, change, set-password links) waiting for one.',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const slots = sources.passwordSlots();
      this.set({ state: 'in_use' }, slots.inUse);
      this.set({ state: 'waiting' }, slots.waiting);
    },
  });
  new Gauge({
    name: 'chronicle_refusals_held',
    help: 'Rate-limit refusals held for REFUSAL_DELAY_MS before they are answered.',
    registers,
    collect() {
      this.set(sources.refusalsHeld());
    },
  });
  new Gauge({
    name: 'chronicle_render_queue_depth',
    help: 'Render jobs waiting for a worker, and files for a file process.',
    registers,
    collect() {
      this.set(sources.renderQueue().queued);
    },
  });
  new Gauge({
    name: 'chronicle_render_workers',
    help: 'Render workers and file processes by state (busy, idle).',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const { workers, busy } = sources.renderQueue();
      this.set({ state: 'busy' }, busy);
      this.set({ state: 'idle' }, workers - busy);
    },
  });
  new Gauge({
    name: 'chronicle_db_pool_connections',
    help: 'PostgreSQL pool connections in use and idle, and requests waiting for one (absent on the embedded engine).',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const pool = sources.databasePool();
      if (!pool) return;
      this.set({ state: 'in_use' }, pool.total - pool.idle);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    },
  });

  return {
    registry,
    httpDuration,
    renders,
    renderDuration,
    sends,
    scheduleRuns,
    mailAttempts,
    shareViews,
    passcodeFailures,
    overloadRefusals,
    databaseUpkeep,
    async render() {
      const merged = Registry.merge([registry, processMetrics()]);
      return { contentType: merged.contentType, text: await merged.metrics() };
    },
  };
}

/** Times one render and counts its outcome. */
export async function measureRender<T>(metrics: Metrics, kind: RenderKind, work: () => Promise<T>): Promise<T> {
  const end = metrics.renderDuration.startTimer({ kind });
  try {
    const result = await work();
    metrics.renders.inc({ kind, outcome: 'ok' });
    return result;
  } catch (error) {
    metrics.renders.inc({ kind, outcome: 'failed' });
    throw error;
  } finally {
    end();
  }
}
