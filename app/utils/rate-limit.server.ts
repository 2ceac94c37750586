import type { RateLimiterLike, RateLimiterRes } from "rate-limiter-flexible";
import { createLimiter, isRefusal } from "~db/rate-limits.server";
import { databaseUrl } from "~db/client.server";
import { RATE_LIMIT_WINDOW_MINUTES } from "~db/retention";
import { getT } from "~/i18n/i18next.server";
import { pseudonymOf } from "./pseudonym.server";

/**
 * Fixed-window rate limits through rate-limiter-flexible: in memory with SQLite (one process), in
 * the database with PostgreSQL, so several processes count the same windows (db/rate-limits.server.ts).
 * Each limiter is named (submit, suggest, login-ip, ...) and counts per key (an address, an email),
 * which is stored only as its pseudonym (`pseudonymOf`, decision 322): no address or email in the
 * `rate_limits` table or in memory, and a window ends within RATE_LIMIT_WINDOW_MINUTES (the privacy
 * page says so).
 */
export interface RateLimit {
  name: string;
  /** Allowed hits per window. */
  max: number;
  windowMs: number;
}

export type RateLimitResult = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };

// One limiter per name and database (tests switch databases within a process).
const limiters = new Map<string, RateLimiterLike>();

function limiterFor(limit: RateLimit): RateLimiterLike {
  if (limit.windowMs > RATE_LIMIT_WINDOW_MINUTES * 60_000) {
    throw new Error(
      `rate limit ${limit.name}: a window past ${RATE_LIMIT_WINDOW_MINUTES} minutes breaks what the privacy page says`,
    );
  }
  const key = `${databaseUrl()}\n${limit.name}`;
  let limiter = limiters.get(key);
  if (!limiter) limiters.set(key, (limiter = createLimiter(limit)));
  return limiter;
}

/** What the limiter stores for `key`: its pseudonym, per limiter. */
const stored = (limit: RateLimit, key: string) => pseudonymOf(`limit:${limit.name}`, key);

const secondsUntil = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

/** Counts one hit for `key`; refuses once `max` is reached within the window. */
export async function hitRateLimit(limit: RateLimit, key: string): Promise<RateLimitResult> {
  try {
    const res = await limiterFor(limit).consume(await stored(limit, key));
    return { ok: true, remaining: res.remainingPoints };
  } catch (refusal) {
    if (isRefusal(refusal)) return { ok: false, retryAfterSeconds: secondsUntil(refusal) };
    throw refusal;
  }
}

/** Peek without counting (e.g. to refuse before doing expensive work). */
export async function isRateLimited(limit: RateLimit, key: string): Promise<boolean> {
  return (await rateLimitCount(limit, key)) >= limit.max;
}

/** Hits counted for `key` in the current window (0 when none). */
export async function rateLimitCount(limit: RateLimit, key: string): Promise<number> {
  const res = await limiterFor(limit).get(await stored(limit, key));
  return res && res.msBeforeNext > 0 ? res.consumedPoints : 0;
}

/** Gives back one hit counted by `hitRateLimit` (it turned out not to count: a right password). */
export async function refundRateLimit(limit: RateLimit, key: string): Promise<void> {
  await limiterFor(limit).reward(await stored(limit, key), 1);
}

export async function resetRateLimit(limit: RateLimit, key: string): Promise<void> {
  await limiterFor(limit).delete(await stored(limit, key));
}

/** The clear 429 page: thrown from an action, rendered by the error boundary in the visitor's language. */
export async function tooManyRequests(request: Request, retryAfterSeconds: number): Promise<Response> {
  const t = await getT(request);
  return new Response(t("errors.rateLimited", { count: Math.max(1, Math.ceil(retryAfterSeconds / 60)) }), {
    status: 429,
    headers: { "Retry-After": String(retryAfterSeconds), "Content-Type": "text/plain; charset=utf-8" },
  });
}
