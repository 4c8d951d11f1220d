/**
 * How far behind the event loop is (docs/operations.md "Saturation"). Node's own histogram
 * (perf_hooks.monitorEventLoopDelay) records how late a timer fires every 20 ms; each second the
 * longest delay of that second is kept. A loop blocked for 2 s shows as a 2 s delay from the moment
 * it is free again, so the requests that piled up meanwhile are refused quickly instead of each
 * being served seconds late. Tests inject a source of their own rather than block the loop.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface PressureSource {
  /** The longest event-loop delay of the last completed second or of the current one, in ms. */
  eventLoopDelayMs(): number;
  /** Forgets what was measured so far: start-up blocks the loop by design and is not overload. */
  reset?(): void;
  close(): void;
}

const RESOLUTION_MS = 20;
const WINDOW_MS = 1_000;

export function eventLoopPressure(): PressureSource {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let lastWindowMs = 0;
  const timer = setInterval(() => {
    lastWindowMs = histogram.max / 1e6;
    histogram.reset();
  }, WINDOW_MS);
  timer.unref();
  return {
    // The histogram's max is 0 before its first sample; its value includes the resolution itself.
    eventLoopDelayMs: () => Math.max(lastWindowMs, histogram.count > 0 ? histogram.max / 1e6 : 0),
    reset() {
      lastWindowMs = 0;
      histogram.reset();
    },
    close() {
      clearInterval(timer);
      histogram.disable();
    },
  };
}

/** Whether new requests should be refused: the check is on and the loop is further behind than it allows. */
export function isOverloaded(pressure: PressureSource, thresholdMs: number): boolean {
  return thresholdMs > 0 && pressure.eventLoopDelayMs() > thresholdMs;
}

/** Seconds a refused client is told to wait: a window or two of the measurement. */
export const OVERLOAD_RETRY_AFTER_SECONDS = 2;
