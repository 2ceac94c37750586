import { runWrite } from "~db/availability.server";
import { BoundedMemoryLimiter, isRefusal } from "~db/rate-limits.server";
import { getEnv } from "~/utils/env.server";
import { unavailableAnswer } from "~/utils/failures.server";
import { tooManyRequests } from "~/utils/rate-limit.server";
import { drawReferralCode, drawReferralCodeBySlug } from "~db/repositories/draw.server";
import { bindDrawCookie, drawToken } from "~/features/trust/draw-token.server";
import { networkOf } from "../../../server/address-key";
import { DAY_SECONDS, DRAW_NETWORK_FACTORS, DRAW_PLATFORM_SHARE } from "./limits";
import type { AppLoadContext } from "@remix-run/node";
import { rawClientAddress } from "~/utils/client-address.server";
import { pseudonymOf } from "~/utils/pseudonym.server";

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

/**
 * The draw behind a draw form: draws for the active platform with this slug, or
 * across every active platform (null), and returns the address of the signed result page. Null
 * when nothing was drawn, which writes nothing; the page then says why.
 * Shared by the route actions and the server's draw endpoint (server/draw-endpoint.ts). Throws
 * DatabaseUnavailable when the database refuses the write for now (answered 503, never retried), and
 * DrawsLimited when `address` (its key, `addressKey`) made too many draws (429).
 */
export async function drawForPage(slug: string | null, address: string): Promise<string | null> {
  await countDraw(address);
  await countDailyDraw(address, slug);
  const drawn = await runWrite("draw", () => (slug === null ? drawReferralCode(null) : drawReferralCodeBySlug(slug)));
  return drawn ? `${drawPagePath(slug)}?draw=${drawToken(drawn.requestId)}` : null;
}

/** The headers of a draw page's 303 to its result: the cookie that lets this browser answer (decision 315). */
export async function drawCookieHeaders(request: Request, context: AppLoadContext, location: string): Promise<HeadersInit> {
  const cookie = await bindDrawCookie(location, request.headers.get("Cookie"), rawClientAddress(context));
  return cookie ? { "Set-Cookie": cookie } : {};
}

/**
 * What a draw page's action throws for a draw that was refused: 429 past the address's draws ("Trop
 * de tentatives… Réessayez dans N minutes", in the visitor's language, with Retry-After), the
 * database's 503 (unavailableAnswer), or the error itself.
 */
export async function drawRefusal(request: Request, error: unknown): Promise<unknown> {
  if (!(error instanceof DrawsLimited)) return unavailableAnswer(request, error);
  return tooManyRequests(request, error.retryAfterSeconds);
}
