import { getDb, type DB } from "../client.server";

/** What the sitemap needs: active platforms with their last change, and the newest dates per area. */
export async function listSitemapPlatforms(db: DB = getDb()) {
  return db
    .selectFrom("platforms")
    .leftJoin("referral_codes", (join) =>
      join.onRef("referral_codes.platform_id", "=", "platforms.id").on("referral_codes.is_active", "=", 1),
    )
    .select((eb) => ["platforms.slug", "platforms.created_at", eb.fn.max("referral_codes.created_at").as("last_code_at")])
    .where("platforms.is_active", "=", 1)
    .groupBy(["platforms.id", "platforms.slug", "platforms.created_at"])
    .orderBy("platforms.display_order", "asc")
    .orderBy("platforms.slug", "asc")
    .execute();
}

export async function latestDates(db: DB = getDb()) {
  const [suggestion, partnership] = await Promise.all([
    db
      .selectFrom("platform_suggestions")
      .select((eb) => eb.fn.max("created_at").as("at"))
      .executeTakeFirst(),
    db
      .selectFrom("partnerships")
      .select((eb) => eb.fn.max("created_at").as("at"))
      .where("is_active", "=", 1)
      .executeTakeFirst(),
  ]);
  return { suggestion: suggestion?.at ?? null, partnership: partnership?.at ?? null };
}
