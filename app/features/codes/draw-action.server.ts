import { runWrite } from "~db/availability.server";
import { BoundedMemoryLimiter, isRefusal } from "~db/rate-limits.server";
import { getEnv } from "~/utils/env.server";
import { unavailableAnswer } from "~/utils/failures.server";
import { tooManyRequests } from "~/utils/rate-limit.server";
import { drawReferralCode } from "~db/repositories/draw.server";
import { bindDrawCookie, drawToken } from "~/features/trust/draw-token.server";
import { networkOf } from "../../../server/address-key";
import { DAY_SECONDS, DRAW_NETWORK_FACTORS, DRAW_PLATFORM_SHARE } from "./limits";
import type { AppLoadContext } from "@remix-run/node";
import { rawClientAddress } from "~/utils/client-address.server";
import { pseudonymOf } from "~/utils/pseudonym.server";
import { getT } from "~/i18n/i18next.server";
import { failure } from "~/utils/responses.server";

/** The page a draw form posts to: `/{slug}/get-code`, or `/random` (slug null). */
function drawPagePath(slug: string | null): string {
  return slug === null ? "/random" : `/${slug}/get-code`;
}

const DRAW_WINDOW_SECONDS = 10 * 60;

/**
 * An address past its draws for the window (decision 298): answered 429 with Retry-After, nothing
 * drawn or written.
 */
class DrawsLimited extends Error {
  readonly status = 429;
  constructor(readonly retryAfterSeconds: number) {
    super("too many draws from this address");
    this.name = "DrawsLimited";
  }
}

/** Draws' result pages wait past their bound (server/admission.ts): a draw is refused before it is made. */
class DrawsBackedUp extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("draws' result pages are backed up");
    this.name = "DrawsBackedUp";
  }
}

let limiter: { max: number; memory: BoundedMemoryLimiter } | null = null;

type DailyBound = keyof typeof DRAW_NETWORK_FACTORS;
let daily: { max: number; memory: Map<string, BoundedMemoryLimiter> } | null = null;

/**
 * The limiter of one daily bound: `factor` times DRAW_DAILY_LIMIT a day for every draw; or, per
 * platform (`perPlatform`), DRAW_PLATFORM_SHARE of that.
 */
function dailyLimiter(max: number, bound: DailyBound, perPlatform: boolean): BoundedMemoryLimiter {
  if (daily?.max !== max) daily = { max, memory: new Map() };
  const name = `${bound}${perPlatform ? "-platform" : ""}`;
  let memory = daily.memory.get(name);
  if (!memory) {
    const all = max * DRAW_NETWORK_FACTORS[bound];
    const points = perPlatform ? Math.max(1, Math.round(all * DRAW_PLATFORM_SHARE)) : all;
    memory = new BoundedMemoryLimiter({ keyPrefix: `draw-day-${name}`, points, duration: DAY_SECONDS });
    daily.memory.set(name, memory);
  }
  return memory;
}

/**
 * The daily bounds (decision 312): the address's /64 (or IPv4 address) and its network (IPv6 /48,
 * IPv4 /24), for all draws and, tighter, for one platform's. Each is checked before anything is
 * counted, so a refused draw spends nothing.
 */
async function countDailyDraw(address: string, slug: string | null): Promise<void> {
  const max = getEnv().DRAW_DAILY_LIMIT;
  if (max === 0) return;
  const network = networkOf(address);
  const keys: Array<[DailyBound, string]> = [["subscriber", address]];
  if (network) keys.push([network.kind, network.key]);
  const bounds: Array<[BoundedMemoryLimiter, string]> = keys.map(([bound, key]) => [dailyLimiter(max, bound, false), key]);
  // One platform's draws (not /random's, which no one can aim): a quarter of the day's.
  if (slug !== null) for (const [bound, key] of keys) bounds.push([dailyLimiter(max, bound, true), `${key} ${slug}`]);
  // Kept as pseudonyms under the month's key, never the address (the privacy page's 24 hours).
  for (const bound of bounds) bound[1] = await pseudonymOf("draw-day", bound[1]);
  for (const [memory, key] of bounds) {
    const res = await memory.get(key);
    if (res && res.consumedPoints >= memory.points) throw new DrawsLimited(Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
  }
  for (const [memory, key] of bounds) await memory.consume(key).catch(() => undefined);
}

/**
 * Counts a draw for `address`; throws DrawsLimited past DRAW_RATE_LIMIT in 10 minutes. In this
 * process's memory whatever the database: a draw is the hot path, and a row of the rate-limit table
 * per draw would double its writes on PostgreSQL (each process then counts its own).
 */
async function countDraw(address: string): Promise<void> {
  const max = getEnv().DRAW_RATE_LIMIT;
  if (max === 0) return;
  if (limiter?.max !== max)
    limiter = { max, memory: new BoundedMemoryLimiter({ keyPrefix: "draw", points: max, duration: DRAW_WINDOW_SECONDS }) };
  try {
    await limiter.memory.consume(address);
  } catch (refusal) {
    if (isRefusal(refusal)) throw new DrawsLimited(Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)));
    throw refusal;
  }
}

// Draws being made in this process: their result pages are about to be asked (admission control).
let drawing = 0;

/**
 * The draw behind a draw form (the route actions of `/{slug}/get-code` and `/random`): counts the
 * address's draws, then draws for the active platform with this slug, or across every active
 * platform (null), and returns the address of the signed result page. Null when nothing was drawn
 * (no eligible code, unknown or inactive platform), which writes nothing; the page then says why.
 * Throws, before anything is drawn: DrawsLimited when `address` (its key, `addressKeyOf`) made too
 * many draws (429); DrawsBackedUp while draws' result pages wait too long to be served (503: a
 * result page, once its draw is stored, is never refused, decision 330). Throws DatabaseUnavailable
 * when the database refuses the write for now (503, never retried).
 */
export async function drawForPage(slug: string | null, address: string, context: AppLoadContext): Promise<string | null> {
  if (context.draws?.backedUp(drawing)) throw new DrawsBackedUp(context.draws.retryAfterSeconds);
  await countDraw(address);
  await countDailyDraw(address, slug);
  drawing++;
  try {
    const drawn = await runWrite("draw", () => drawReferralCode(slug));
    const location = drawn ? `${drawPagePath(slug)}?draw=${drawToken(drawn.requestId)}` : null;
    // Its result page waits ahead of other pages and is never refused (server/admission.ts).
    if (location) context.draws?.made(location);
    return location;
  } finally {
    drawing--;
  }
}

/** The headers of a draw page's 303 to its result: the cookie that lets this browser answer (decision 315). */
export async function drawCookieHeaders(request: Request, context: AppLoadContext, location: string): Promise<HeadersInit> {
  const cookie = await bindDrawCookie(location, request.headers.get("Cookie"), rawClientAddress(context));
  return cookie ? { "Set-Cookie": cookie } : {};
}

/**
 * What a draw page's action throws for a draw that was refused: 429 past the address's draws ("Trop
 * de tentatives… Réessayez dans N minutes", in the visitor's language, with Retry-After); 503 with
 * the overload message and Retry-After while result pages are backed up; the database's 503
 * (unavailableAnswer); or the error itself.
 */
export async function drawRefusal(request: Request, error: unknown): Promise<unknown> {
  if (error instanceof DrawsBackedUp) {
    const t = await getT(request, "refusals");
    return failure(503, t("overloaded"), {
      headers: { "Retry-After": String(error.retryAfterSeconds), "Cache-Control": "no-store" },
    });
  }
  if (!(error instanceof DrawsLimited)) return unavailableAnswer(request, error);
  return tooManyRequests(request, error.retryAfterSeconds);
}
