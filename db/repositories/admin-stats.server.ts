import { getDb, type DB } from "../client.server";
import { startOfDayIso } from "../time";

/** The dashboard's four cards; "today" starts at midnight Europe/Paris. */
export async function getDashboardStats(db: DB = getDb(), now = new Date()) {
  const nowIso = now.toISOString();
  const [codes, requests] = await Promise.all([
    db
      .selectFrom("referral_codes")
      .select((eb) => [
        eb.fn.countAll<number>().as("total"),
        eb.fn
          .sum<number>(
            eb
              .case()
              .when(
                eb.and([
                  eb("is_active", "=", 1),
                  eb.or([eb("is_permanent", "=", 1), eb("expires_at", "is", null), eb("expires_at", ">", nowIso)]),
                ]),
              )
              .then(1)
              .else(0)
              .end(),
          )
          .as("active"),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("random_requests")
      .select((eb) => [
        eb.fn.countAll<number>().as("total"),
        eb.fn.sum<number>(eb.case().when("created_at", ">=", startOfDayIso(now)).then(1).else(0).end()).as("today"),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  return {
    activeCodes: Number(codes.active ?? 0),
    totalCodes: Number(codes.total),
    todayRequests: Number(requests.today ?? 0),
    totalRequests: Number(requests.total),
  };
}
