import { platformDrawsSince } from "~db/repositories/answer-freshness.server";

/** The pace of a platform's draws is read over this many days. */
const PACE_DAYS = 7;

export interface RotationEstimate {
  /** Draws of the platform until this code is served (1: the next one). */
  draws: number;
  /** When that many draws happen at the pace of the last PACE_DAYS days; null without draws lately. */
  around: string | null;
}

/**
 * "Next in about N draws; at the current pace, around <date>": the code's place in the fairness
 * order (codes served before it) turned into draws and a day, from the platform's recent pace.
 */
export async function estimateNextServe(platformId: number, codesBefore: number, now = new Date()): Promise<RotationEstimate> {
  const since = new Date(now.getTime() - PACE_DAYS * 24 * 60 * 60 * 1000).toISOString();
  const recent = await platformDrawsSince(platformId, since);
  const draws = codesBefore + 1;
  if (recent === 0) return { draws, around: null };
  const msPerDraw = (PACE_DAYS * 24 * 60 * 60 * 1000) / recent;
  return { draws, around: new Date(now.getTime() + draws * msPerDraw).toISOString() };
}
