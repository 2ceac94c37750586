import { getDb, type DB } from "../client.server";

/** Public reads of partnerships. Admin CRUD lives elsewhere. */

export async function listActivePartnerships(db: DB = getDb()) {
  return db
    .selectFrom("partnerships")
    .select([
      "id",
      "name",
      "description",
      "description_en",
      "description_de",
      "description_es",
      "url",
      "logo_url",
      "display_mode",
    ])
    .where("is_active", "=", 1)
    .orderBy("display_order", "asc")
    .orderBy("id", "asc")
    .execute();
}
