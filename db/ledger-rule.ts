/**
 * The ledger's file format and the rule a reader replays (docs/ledger.md). Shared by the server,
 * which publishes the files, and the verifier (`npm run fairness:verify`), which checks them: no
 * database, no secret, nothing but the files.
 */

export const LEDGER_EVENT_TYPES = [
  "draw",
  "added",
  "deleted",
  "paused",
  "resumed",
  "capped",
  "cap-ended",
  "expiry",
  "level",
  "edited",
] as const;
export type LedgerEventType = (typeof LEDGER_EVENT_TYPES)[number];

/** One code in the rotation state: what decides whether it may be drawn and when. */
export interface LedgerEntry {
  handle: string;
  /** Turns (rotation_count): the draw serves the lowest first. */
  count: number;
  /** When it was last served (null: never, since it was added). */
  last: string | null;
  active: boolean;
  /** Out of the rotation from this instant (null: permanent or no expiry). */
  expires: string | null;
  /** Out of the rotation until this instant (null: not capped). */
  capped: string | null;
}

export interface LedgerHeader {
  platform: string;
  day: string;
  /** SHA-256 (hex) of the previous day's file; null for the platform's first day. */
  previous: string | null;
  /** Every code of the platform at the day's start, by handle. */
  state: LedgerEntry[];
}

/** One line after the header: a draw, or a change of a code's eligibility, with the code's state after it. */
export interface LedgerEvent {
  type: LedgerEventType;
  at: string;
  handle: string;
  count: number;
  active: boolean;
  expires: string | null;
  capped: string | null;
}

export type LedgerState = Map<string, LedgerEntry>;

/** Rule 1 (docs/fairness.md): active, not expired, not capped (or the cap has ended) at `at`. */
export function inRotation(entry: LedgerEntry, at: string): boolean {
  return entry.active && (entry.expires === null || entry.expires > at) && (entry.capped === null || entry.capped <= at);
}

/** The state after an event (no checks: the verifier checks before it applies). */
export function applyLedgerEvent(state: LedgerState, event: LedgerEvent): void {
  if (event.type === "deleted") {
    state.delete(event.handle);
    return;
  }
  const before = state.get(event.handle);
  state.set(event.handle, {
    handle: event.handle,
    count: event.count,
    last: event.type === "draw" ? event.at : event.type === "added" ? null : (before?.last ?? null),
    active: event.active,
    expires: event.expires,
    capped: event.capped,
  });
}

/**
 * Rule 2 for a draw: the code was in the rotation, no code in it had fewer turns (any of a tie is
 * fair: the order among them is random), and the serve added one turn. A reason when it fails.
 */
export function drawFault(state: LedgerState, event: LedgerEvent): string | null {
  const drawn = state.get(event.handle);
  if (!drawn) return `draw of ${event.handle}, which is not in the platform's state`;
  if (!inRotation(drawn, event.at)) return `draw of ${event.handle}, which was out of the rotation (paused, expired or capped)`;
  let least = drawn;
  for (const entry of state.values()) if (inRotation(entry, event.at) && entry.count < least.count) least = entry;
  if (least !== drawn) {
    return `draw of ${event.handle} with ${drawn.count} turns, but ${least.handle} had ${least.count}: not the least served`;
  }
  if (event.count !== drawn.count + 1)
    return `draw of ${event.handle}: its turns went from ${drawn.count} to ${event.count}, not one more`;
  return null;
}
