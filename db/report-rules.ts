import type { ReportOutcome, ReportReason } from "./schema";

/**
 * Why a failed answer failed, and what each reason does to a code (docs/decisions/090):
 * - `expired`, `other` (and failures answered before reasons existed): the code looks dead; enough
 *   of them pause it until an admin checks it;
 * - `limit-reached`: the sharer hit the platform's monthly referral cap; enough of them take the code
 *   out until the first day of the next month (UTC), then it comes back by itself;
 * - `wrong-region`, `conditions-not-met`: the visitor's situation, not the code's; they never take a
 *   code out and are shown as hints.
 */
export const REPORT_REASONS = ["expired", "limit-reached", "wrong-region", "conditions-not-met", "other"] as const;

/** Reasons that say nothing against the code itself. */
const HINT_REASONS: ReadonlySet<ReportReason> = new Set(["wrong-region", "conditions-not-met"]);

/**
 * The trust loop's edge, shared by the database rule and the pages that explain it: among a code's
 * last `window` counted answers, failures of one kind whose draws came from at least
 * `minFailedAddresses` different networks (IPv6 /48, IPv4 /24: decision 315; the name stays for the
 * pages that read it) AND making at least `minFailedPercent` of those answers.
 */
export const PAUSE_RULE = { window: 10, minFailedAddresses: 3, minFailedPercent: 60 } as const;

/** `network_hash`: the drawing network; null for answers given before it was kept (then `ip_hash` counts). */
export type Answer = { outcome: ReportOutcome; reason: ReportReason | null; ip_hash: string; network_hash?: string | null };
export type Verdict = "pause" | "cap" | null;

/** A failure that counts against the code: anything but the hint reasons. */
function countsAgainst(a: Answer): boolean {
  return a.outcome === "failed" && !(a.reason !== null && HINT_REASONS.has(a.reason));
}

function clearsEdge(failures: readonly Answer[], answers: number): boolean {
  if (new Set(failures.map((a) => a.network_hash ?? a.ip_hash)).size < PAUSE_RULE.minFailedAddresses) return false;
  return failures.length * 100 >= PAUSE_RULE.minFailedPercent * answers;
}

/**
 * The rule on a code's last answers (newest first, at most PAUSE_RULE.window). The failures that
 * count against the code (every reason but the hints) must clear the edge; then the code is capped
 * for the month when at least half of them said "limit reached" (the milder outcome, which undoes
 * itself), otherwise paused. Hint answers still count as answers (they dilute the share).
 */
export function verdictOn(answers: readonly Answer[]): Verdict {
  const against = answers.filter(countsAgainst);
  if (!clearsEdge(against, answers.length)) return null;
  const limited = against.filter((a) => a.reason === "limit-reached").length;
  return limited * 2 >= against.length ? "cap" : "pause";
}

/** The first instant of the month after `now`'s, in UTC: when a capped code comes back. */
export function nextMonthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}
