import { getDb, type DB } from "../client.server";

/**
 * What the sitemap needs: active platforms with their last change, and the newest dates per area.
 * A platform's newest active code is one step down referral_codes_active_created_idx (a subquery
 * per platform), never a pass over its codes.
 */
export async function listSitemapPlatforms(db: DB = getDb()) {
  return db
    .selectFrom("platforms")
    .select((eb) => [
      "platforms.slug",
      "platforms.created_at",
      eb
        .selectFrom("referral_codes")
        .select((sub) => sub.fn.max("referral_codes.created_at").as("at"))
        .whereRef("referral_codes.platform_id", "=", "platforms.id")
        .where("referral_codes.is_active", "=", eb.lit(1))
        .as("last_code_at"),
    ])
    .where("platforms.is_active", "=", 1)
    .orderBy("platforms.display_order", "asc")
    .orderBy("platforms.slug", "asc")
    .execute();
}

/** The newest suggestion's and active partnership's dates (the sitemap's lastmod of their pages). */
export async function latestDates(db: DB = getDb()) {
  const [suggestion, partnership] = await Promise.all([
    // The newest suggestion is the one with the highest id (ids and created_at grow together): one
    // step down the primary key, not a pass over every suggestion ever made.
    db
      .selectFrom("platform_suggestions")
      .select("created_at as at")
      .where("id", "=", (eb) => eb.selectFrom("platform_suggestions").select((sub) => sub.fn.max("id").as("id")))
      .executeTakeFirst(),
    db
      .selectFrom("partnerships")
      .select((eb) => eb.fn.max("created_at").as("at"))
      .where("is_active", "=", 1)
      .executeTakeFirst(),
  ]);
  return { suggestion: suggestion?.at ?? null, partnership: partnership?.at ?? null };
}
