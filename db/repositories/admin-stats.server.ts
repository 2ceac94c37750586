import { getDb, type DB } from "../client.server";
import { startOfDayIso } from "../time";
import { countAllCodes, countAvailableByPlatform } from "./code-counts.server";
import { countAllDraws, figuresPerDay } from "./history.server";

/**
 * The dashboard's four cards; "today" starts at midnight Europe/Paris. Codes are counted from the
 * counts kept by triggers (decision 194); draws from the daily figures plus the log's recent rows.
 */
export async function getDashboardStats(now = new Date(), db: DB = getDb()) {
  const [total, available, allDraws, today] = await Promise.all([
    countAllCodes(db),
    countAvailableByPlatform(now, db),
    countAllDraws(db),
    figuresPerDay([startOfDayIso(now)], "9999", null, db),
  ]);
  let todayRequests = 0;
  for (const days of today.values()) todayRequests += days[0]!.draws;
  return {
    activeCodes: [...available.values()].reduce((sum, n) => sum + n, 0),
    totalCodes: total,
    todayRequests,
    totalRequests: allDraws,
  };
}
