import type express from "express";
import { addressKey } from "./address-key";

/**
 * How many server-sent event streams (`/events/…`) one process keeps open at once (decision 280).
 * A stream never ends by itself, and Fly's proxy counts each one as a request in flight against
 * fly.toml's `hard_limit` (120): without a bound, 120 open tabs would hold every place the proxy gives
 * this machine, and no new visitor would get a page. Pages open their stream only while they are
 * visible (app/components/theme-form.tsx), so the bound is met by people looking at the site, not by
 * tabs left in the background.
 */
export const DEFAULT_EVENT_STREAMS_MAX = 24;

/**
 * How many of them one address may hold (an IPv6 /64 counting as one, decision 202): a visitor has
 * one visible page per window; a stranger opening streams in a loop takes 4 places, not all of them.
 */
export const EVENT_STREAMS_PER_ADDRESS = 4;

/** `EVENT_STREAMS_MAX` from the environment (a whole number, 0 refuses every stream), else the default. */
export function eventStreamsMaxFromEnv(env: Record<string, string | undefined>): number {
  const raw = env.EVENT_STREAMS_MAX;
  const value = Number(raw);
  return raw !== undefined && raw !== "" && Number.isInteger(value) && value >= 0 ? value : DEFAULT_EVENT_STREAMS_MAX;
}

/**
 * Keeps the open event streams, so that a shutdown can end them at once (they never end by
 * themselves), and bounds them: past `max` open streams, or EVENT_STREAMS_PER_ADDRESS from one
 * address, a new one is answered `204 No Content`, which tells the browser's EventSource to stop and
 * not reconnect. The page keeps working without live updates and asks again the next time it becomes
 * visible; the stream's first event carries the current value, so nothing said meanwhile is missed.
 */
export function trackEventStreams(max: number, clientIp: (req: express.Request) => string) {
  const streams = new Set<express.Response>();
  const perAddress = new Map<string, number>();
  const middleware: express.RequestHandler = (req, res, next) => {
    if (req.method !== "GET" || !req.path.startsWith("/events/")) return next();
    const address = addressKey(clientIp(req));
    const held = perAddress.get(address) ?? 0;
    if (streams.size >= max || held >= EVENT_STREAMS_PER_ADDRESS) {
      res.status(204).set("Cache-Control", "no-store").end();
      return;
    }
    streams.add(res);
    perAddress.set(address, held + 1);
    res.once("close", () => {
      streams.delete(res);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
    next();
  };
  const endAll = () => {
    for (const res of streams) res.end();
    streams.clear();
  };
  return { middleware, endAll };
}
