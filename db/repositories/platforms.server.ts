import { getDb, type DB } from "../client.server";
import type { Platform } from "../schema";

/** Public reads of platforms. Admin writes live in admin-catalog.server.ts. */

/**
 * Active platforms, in their display order, all columns. `shownOn` keeps those the admin chose to
 * show on the home page or on the partnerships page.
 */
export async function listPlatforms({ shownOn }: { shownOn?: "homepage" | "partnerships" } = {}, db: DB = getDb()) {
  let query = db.selectFrom("platforms").selectAll().where("is_active", "=", 1);
  if (shownOn === "homepage") query = query.where("show_in_homepage", "=", 1);
  if (shownOn === "partnerships") query = query.where("show_in_partnerships", "=", 1);
  return query.orderBy("display_order", "asc").orderBy("name", "asc").execute();
}

/** Active platforms for selects (id, name, slug) by name. */
export async function listActivePlatformOptions(db: DB = getDb()) {
  return db.selectFrom("platforms").select(["id", "name", "slug"]).where("is_active", "=", 1).orderBy("name", "asc").execute();
}

export async function getPlatformBySlug(slug: string, db: DB = getDb()): Promise<Platform | undefined> {
  return db.selectFrom("platforms").selectAll().where("slug", "=", slug).executeTakeFirst();
}

export async function getActivePlatformBySlug(slug: string, db: DB = getDb()): Promise<Platform | undefined> {
  return db.selectFrom("platforms").selectAll().where("slug", "=", slug).where("is_active", "=", 1).executeTakeFirst();
}

/** The description in the visitor's language ("fr", "en", "de", "es"), falling back to French. */
export function platformDescription(
  platform: Pick<Platform, "description" | "description_en" | "description_de" | "description_es">,
  language: string,
): string {
  const localized =
    language === "en"
      ? platform.description_en
      : language === "de"
        ? platform.description_de
        : language === "es"
          ? platform.description_es
          : null;
  return localized || platform.description;
}
