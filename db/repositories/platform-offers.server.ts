import { getDb, type DB } from "../client.server";
import type { PlatformOffersTable } from "../schema";

/** What a referral gives and how to claim it, one row per platform (the admin's offer form). */

export type PlatformOfferRow = Omit<PlatformOffersTable, "platform_id" | "updated_at">;

export async function getPlatformOffer(platformId: number, db: DB = getDb()): Promise<PlatformOfferRow | undefined> {
  return db.selectFrom("platform_offers").selectAll().where("platform_id", "=", platformId).executeTakeFirst();
}

/** Every platform's offer (the public JSON, which lists every active platform): one row per platform at most. */
export async function listPlatformOffers(db: DB = getDb()) {
  return db.selectFrom("platform_offers").selectAll().execute();
}

/** The offers of the platforms `ids` (a page of the admin's platforms tab), by their primary key. */
export async function listPlatformOffersOf(ids: number[], db: DB = getDb()) {
  if (ids.length === 0) return [];
  return db.selectFrom("platform_offers").selectAll().where("platform_id", "in", ids).execute();
}

/** Writes the whole offer of a platform (every text in every language and the checked-on date). */
export async function savePlatformOffer(platformId: number, offer: PlatformOfferRow, now = new Date(), db: DB = getDb()) {
  const values = { ...offer, updated_at: now.toISOString() };
  await db
    .insertInto("platform_offers")
    .values({ platform_id: platformId, ...values })
    .onConflict((oc) => oc.column("platform_id").doUpdateSet(values))
    .execute();
}

/** What the offer gives the new customer, in every language, for the platforms `ids` (the home page's cards). */
export async function listOfferLeadsOf(ids: number[], db: DB = getDb()) {
  if (ids.length === 0) return [];
  return db
    .selectFrom("platform_offers")
    .select(["platform_id", "offer_referee", "offer_referee_en", "offer_referee_de", "offer_referee_es"])
    .where("platform_id", "in", ids)
    .execute();
}
