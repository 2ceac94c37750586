import { getT } from "~/i18n/i18next.server";

/**
 * Fixed-window rate limits kept in memory: one VM, one process, so no shared store is needed.
 * Each limiter is named (submit, suggest, login-ip, ...) and counts per key (an address, an email).
 */
interface Window {
  count: number;
  resetAt: number;
}

const limiters = new Map<string, Map<string, Window>>();

export interface RateLimit {
  name: string;
  /** Allowed hits per window. */
  max: number;
  windowMs: number;
}

export type RateLimitResult = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };

/** Counts one hit for `key`; refuses once `max` is reached within the window. */
export function hitRateLimit(limit: RateLimit, key: string, now = Date.now()): RateLimitResult {
  let windows = limiters.get(limit.name);
  if (!windows) limiters.set(limit.name, (windows = new Map()));
  let window = windows.get(key);
  if (!window || window.resetAt <= now) {
    window = { count: 0, resetAt: now + limit.windowMs };
    windows.set(key, window);
    if (windows.size > 50_000) sweep(windows, now);
  }
  if (window.count >= limit.max) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)) };
  window.count++;
  return { ok: true, remaining: limit.max - window.count };
}

/** Peek without counting (e.g. to refuse before doing expensive work). */
export function isRateLimited(limit: RateLimit, key: string, now = Date.now()): boolean {
  const window = limiters.get(limit.name)?.get(key);
  return !!window && window.resetAt > now && window.count >= limit.max;
}

/** Hits counted for `key` in the current window (0 when none). */
export function rateLimitCount(limit: RateLimit, key: string, now = Date.now()): number {
  const window = limiters.get(limit.name)?.get(key);
  return window && window.resetAt > now ? window.count : 0;
}

export function resetRateLimit(limit: RateLimit, key: string) {
  limiters.get(limit.name)?.delete(key);
}

function sweep(windows: Map<string, Window>, now: number) {
  for (const [key, w] of windows) if (w.resetAt <= now) windows.delete(key);
}

/** The clear 429 page: thrown from an action, rendered by the error boundary in the visitor's language. */
export async function tooManyRequests(request: Request, retryAfterSeconds: number): Promise<Response> {
  const t = await getT(request);
  return new Response(t("errors.rateLimited", { count: Math.max(1, Math.ceil(retryAfterSeconds / 60)) }), {
    status: 429,
    headers: { "Retry-After": String(retryAfterSeconds), "Content-Type": "text/plain; charset=utf-8" },
  });
}
