import { listLeaderboard, type LeaderboardEntry } from "~db/repositories/game.server";
import type { DeviceType } from "./rules";

/**
 * The leaderboard is read by every end dialog: a few seconds of memory in front of the query, emptied
 * whenever a score is saved, so a player always finds their own score at once.
 */
const TTL_MS = 10_000;
const cache = new Map<DeviceType, { rows: LeaderboardEntry[]; until: number }>();

export async function cachedLeaderboard(device: DeviceType, now = Date.now()): Promise<LeaderboardEntry[]> {
  const hit = cache.get(device);
  if (hit && hit.until > now) return hit.rows;
  const rows = await listLeaderboard(device, new Date(now));
  cache.set(device, { rows, until: now + TTL_MS });
  return rows;
}

export function forgetLeaderboard(device: DeviceType) {
  cache.delete(device);
}
