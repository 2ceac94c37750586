import { figuresOverDays } from "~db/repositories/daily-figures.server";
import { parisDayStarts } from "~db/time";

/** The pace of a platform's draws is read over this many days (today and the six before it). */
const PACE_DAYS = 7;

export interface RotationEstimate {
  /** Draws of the platform until this code is served (1: the next one). */
  draws: number;
  /** When that many draws happen at the pace of the last PACE_DAYS days; null without draws lately. */
  around: string | null;
}

/**
 * "Next in about N draws; at the current pace, around <date>": the code's place in the fairness
 * order (codes served before it) turned into draws and a day, from the platform's recent pace. The
 * pace comes from the daily figures (decision 193: the days rolled up, plus today's raw draws), not
 * from a count of a week of raw draws on every owner page (a range proportional to the platform's
 * traffic).
 */
export async function estimateNextServe(platformId: number, codesBefore: number, now = new Date()): Promise<RotationEstimate> {
  const recent = (await figuresOverDays(PACE_DAYS, now, platformId)).get(platformId)?.draws ?? 0;
  const draws = codesBefore + 1;
  if (recent === 0) return { draws, around: null };
  // The span those days cover: from the first one's start (Paris time) to now.
  const msPerDraw = Math.max(1, now.getTime() - Date.parse(parisDayStarts(PACE_DAYS, now)[0]!)) / recent;
  return { draws, around: new Date(now.getTime() + draws * msPerDraw).toISOString() };
}
