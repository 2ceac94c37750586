import crypto from "node:crypto";
import { adminDeviceCookie, hasCookie } from "./cookies.server";
import { getEnv } from "./env.server";
import { hitRateLimit, rateLimitCount, refundRateLimit, resetRateLimit, type RateLimit } from "./rate-limit.server";

/**
 * Password guessing on the admin sign-in, without letting a stranger lock the admin out
 * (decision 111):
 * - one address: 30 failures per 15 minutes, whatever the account (successful sign-ins do not count,
 *   so many people behind one address, or a test suite, can sign in as often as they need);
 * - one account from one address: 10 failures per 15 minutes, then that pair waits;
 * - one account from everywhere: each failure slows the next attempts (0.25 s more per failure
 *   past the 5th, 5 s at most), and past 100 failures in an hour only a browser that has already
 *   signed in to that account may still try. That browser carries a signed device cookie and is
 *   never slowed or stopped by what others do.
 */
const LOGIN_LIMITS = {
  perAddress: { name: "login-ip", max: 30, windowMs: 15 * 60_000 },
  perAccountAndAddress: { name: "login-account-ip", max: 10, windowMs: 15 * 60_000 },
  perAccount: { name: "login-account", max: 100, windowMs: 60 * 60_000 },
} satisfies Record<string, RateLimit>;

const FREE_FAILURES = 5;
const DELAY_STEP_MS = 250;
const MAX_DELAY_MS = 5_000;

export type LoginGate = { ok: true; delayMs: number } | { ok: false; retryAfterSeconds: number };

const pairKey = (account: string, address: string) => `${account}\n${address}`;

/**
 * Counts this attempt before the password is checked, so that a burst of concurrent guesses is
 * counted in time: of N at once from one address, at most the limit reach the password check.
 * Refused: every count taken here is given back. Let through: the attempt stays counted as a
 * failure until `settleLoginAttempt` says it was not one. `address` is the address key.
 */
export async function claimLoginAttempt(account: string, address: string, knownDevice: boolean): Promise<LoginGate> {
  const taken: Array<[RateLimit, string]> = [];
  const refuse = async (limit: RateLimit) => {
    await Promise.all(taken.map(([l, key]) => refundRateLimit(l, key)));
    return { ok: false as const, retryAfterSeconds: limit.windowMs / 1000 };
  };
  const steps: Array<[RateLimit, string]> = [
    [LOGIN_LIMITS.perAddress, address],
    [LOGIN_LIMITS.perAccountAndAddress, pairKey(account, address)],
  ];
  for (const [limit, key] of steps) {
    const hit = await hitRateLimit(limit, key);
    taken.push([limit, key]);
    if (!hit.ok) return refuse(limit);
  }
  const failures = await rateLimitCount(LOGIN_LIMITS.perAccount, account);
  if (!knownDevice && failures >= LOGIN_LIMITS.perAccount.max) return refuse(LOGIN_LIMITS.perAccount);
  await hitRateLimit(LOGIN_LIMITS.perAccount, account);
  if (knownDevice) return { ok: true, delayMs: 0 };
  return { ok: true, delayMs: Math.min(Math.max(0, failures - FREE_FAILURES + 1) * DELAY_STEP_MS, MAX_DELAY_MS) };
}

/** The password was right: the attempt claimed above was no failure (the pair's count starts again). */
export async function settleLoginAttempt(account: string, address: string): Promise<void> {
  await Promise.all([
    refundRateLimit(LOGIN_LIMITS.perAddress, address),
    refundRateLimit(LOGIN_LIMITS.perAccount, account),
    resetRateLimit(LOGIN_LIMITS.perAccountAndAddress, pairKey(account, address)),
  ]);
}

/**
 * What the cookie holds for an account: a keyed hash of it, never the address itself (a signed
 * cookie is readable base64; the browser's owner need not find the admin's email in it).
 */
function deviceMark(account: string): string {
  return crypto.createHmac("sha256", getEnv().SESSION_SECRET).update(`admin-device:${account}`).digest("base64url");
}

/** Whether this browser has signed in to `account` before (a signed cookie holding its mark). */
export async function isKnownDevice(request: Request, account: string): Promise<boolean> {
  if (!hasCookie(request, "admin-device")) return false;
  const value: unknown = await adminDeviceCookie().parse(request.headers.get("Cookie"));
  return value === deviceMark(account);
}

export function knownDeviceCookie(account: string): Promise<string> {
  return adminDeviceCookie().serialize(deviceMark(account));
}
