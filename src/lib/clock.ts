/** The one source of "now", injectable so tests can pin time (presets, expiry, rate windows). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
