/** Occupying the render gate from a test, so render admission is tested by counts, not timings. */
import type { RenderGate } from '../../src/render/render-gate.js';

export interface GateHold {
  /** Resolves once the slot is held. */
  started: Promise<void>;
  /** Frees the slot. */
  release: () => void;
  /** Settles once the slot is given back. */
  done: Promise<unknown>;
}

/** Occupies one of the gate's slots as `userId` until `release()`. */
export function hold(gate: RenderGate, userId: string): GateHold {
  let release!: () => void;
  let started!: () => void;
  const startedPromise = new Promise<void>((resolve) => (started = resolve));
  const done = gate.run(userId, () => {
    started();
    return new Promise<void>((resolve) => (release = resolve));
  });
  return {
    started: startedPromise,
    release: () => {
      release();
    },
    done,
  };
}
