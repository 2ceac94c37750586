import { figuresOverDays } from "~db/repositories/daily-figures.server";
import { drawsAhead, type DrawsAhead } from "~db/repositories/rotation.server";
import { parisDayStarts } from "~db/time";

/** The pace of a platform's draws is read over this many days (today and the six before it). */
const PACE_DAYS = 7;

export interface RotationEstimate {
  /** Draws of the platform until this code is served, at the soonest (1: the next one). */
  min: number;
  /** At the latest. */
  draws: number;
  /** When `min` draws happen at the pace of the last PACE_DAYS days; null without draws lately. */
  from: string | null;
  /** When `draws` draws happen at that pace; null without draws lately. */
  around: string | null;
}

/**
 * "Next within N to M draws; at the current pace, between <date> and <date>": the code's place in the
 * rotation, a range worked out at most once an hour (`drawsAhead`, rotation.server.ts: no timer for a
 * script), turned into draws and days, from the platform's recent pace. The
 * pace comes from the daily figures (decision 193: the days rolled up, plus today's raw draws), not
 * from a count of a week of raw draws on every owner page (a range proportional to the platform's
 * traffic).
 */
async function estimateNextServe(platformId: number, ahead: DrawsAhead, now = new Date()): Promise<RotationEstimate> {
  const recent = (await figuresOverDays(PACE_DAYS, now, platformId)).get(platformId)?.draws ?? 0;
  const min = ahead.min + 1;
  const draws = ahead.max + 1;
  if (recent === 0) return { min, draws, from: null, around: null };
  // The span those days cover: from the first one's start (Paris time) to now.
  const msPerDraw = Math.max(1, now.getTime() - Date.parse(parisDayStarts(PACE_DAYS, now)[0]!)) / recent;
  const after = (n: number) => new Date(now.getTime() + n * msPerDraw).toISOString();
  return { min, draws, from: after(min), around: after(draws) };
}

/** The estimate is worked out at most once per code per clock hour (per process): it is no timer. */
const ESTIMATE_PERIOD_MS = 60 * 60 * 1000;
const ESTIMATES_KEPT = 10_000;
const estimates = new Map<number, { period: number; value: RotationEstimate }>();

/**
 * The owner page's estimate (issue 55): null when the code is not in the rotation (read live), else
 * the range of draws and days, worked out at most once per code per clock hour and kept, also across
 * a pause and resume: a page read every second says the same thing all hour, so neither the draws
 * nor the pace's dates can time a draw.
 */
export async function ownerEstimate(codeId: number, now = new Date()): Promise<RotationEstimate | null> {
  const period = Math.floor(now.getTime() / ESTIMATE_PERIOD_MS);
  const kept = estimates.get(codeId);
  const fresh = kept?.period === period ? null : { platformId: 0 };
  const ahead = await drawsAhead(codeId, now, (platformId) => {
    if (fresh) fresh.platformId = platformId;
    return fresh !== null;
  });
  if (ahead === null) return null;
  if (ahead === "kept") return kept!.value;
  const value = await estimateNextServe(fresh!.platformId, ahead, now);
  if (estimates.size >= ESTIMATES_KEPT) estimates.clear();
  estimates.set(codeId, { period, value });
  return value;
}
