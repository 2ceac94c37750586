import { getDb, type DB } from "../client.server";
import { startOfDayIso } from "../time";
import { eligible } from "./codes.server";
import { countAllDraws, figuresPerDay } from "./history.server";

/**
 * The dashboard's four cards; "today" starts at midnight Europe/Paris. Codes are counted from
 * indexes (the available count reads referral_codes_available_idx alone); draws from the daily
 * figures plus the log's recent rows.
 */
export async function getDashboardStats(now = new Date(), db: DB = getDb()) {
  const [total, active, allDraws, today] = await Promise.all([
    db
      .selectFrom("referral_codes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("referral_codes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where(eligible(now.toISOString()))
      .executeTakeFirstOrThrow(),
    countAllDraws(db),
    figuresPerDay([startOfDayIso(now)], "9999", null, db),
  ]);
  let todayRequests = 0;
  for (const days of today.values()) todayRequests += days[0]!.draws;
  return {
    activeCodes: Number(active.n),
    totalCodes: Number(total.n),
    todayRequests,
    totalRequests: allDraws,
  };
}
