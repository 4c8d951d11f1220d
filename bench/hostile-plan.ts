/** What the bench tells a hostile client to do (bench/hostile-attacker.ts), and what it reports back. */

export type AttackName = 'invalid-bodies' | 'diffs' | 'previews' | 'redeem-flood' | 'slow-bodies';

export interface AttackPlan {
  attack: AttackName;
  /** The server, http://127.0.0.1:<port>. */
  url: string;
  /** The member's bearer token (read and write). */
  token: string;
  userId: string;
  reportId: string;
  fromContentId: string;
  toContentId: string;
  /** The body of POST /reports/preview over the member's large data. */
  previewBody: string;
  /** The attack stops by itself after this many seconds. */
  seconds: number;
}

export interface AttackReport {
  attack: AttackName;
  /** Requests started (slow bodies: sockets opened). */
  sent: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
  /** Requests that failed without an answer, other than those cut at the stop. */
  failed: number;
  /** Requests (or sockets) still waiting when the attack stopped. */
  inFlightAtStop: number;
  /** Slow bodies only: sockets the server closed, and the earliest close after opening, in ms. */
  closedByServer?: number;
  firstCloseMs?: number | null;
  bytesReceived: number;
  durationMs: number;
}

/** How hard each attack pushes: requests in flight at once, and the most it starts in all. */
export const ATTACK_BOUNDS: Record<AttackName, { inFlight: number; maxRequests: number }> = {
  // One at a time: a single such request is the finding. The counts are far above what a
  // well-defended server answers within the time bound, so the attack lasts the whole window.
  'invalid-bodies': { inFlight: 1, maxRequests: 5_000 },
  // The render gate admits 2 running + 4 queued per member: six is the most that can be at work.
  diffs: { inFlight: 6, maxRequests: 5_000 },
  previews: { inFlight: 6, maxRequests: 1_000 },
  'redeem-flood': { inFlight: 64, maxRequests: 200_000 },
  'slow-bodies': { inFlight: 200, maxRequests: 2_000 },
};

/** `scopes` holding this many invalid strings: a 400 KB body, under the 1 MiB body limit. */
export const INVALID_ITEMS = 100_000;
