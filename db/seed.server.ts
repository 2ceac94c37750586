import { DEFAULT_SETTINGS, SEED_PLATFORMS } from "./seed-data";
import { seedClaimSteps } from "./seed-offers";
import type { DB } from "./client.server";

/** Base data: the six platforms and every settings key. Idempotent: existing rows are left alone. */
export async function seedBase(db: DB): Promise<{ platforms: number; settings: number }> {
  const now = new Date().toISOString();
  return db.transaction().execute(async (trx) => {
    let platforms = 0;
    for (const p of SEED_PLATFORMS) {
      const result = await trx
        .insertInto("platforms")
        .values({
          name: p.name,
          slug: p.slug,
          description: p.description.fr,
          description_en: p.description.en,
          description_de: p.description.de,
          description_es: p.description.es,
          code_pattern: p.code_pattern,
          emoji_icon: p.emoji_icon,
          gradient_from: p.gradient_from,
          gradient_to: p.gradient_to,
          is_active: 1,
          show_in_homepage: 1,
          show_in_partnerships: 1,
          display_order: p.display_order,
          hosts: p.hosts,
          referral_url_template: p.referral_url_template,
          url_rules: JSON.stringify(p.url_rules),
          created_at: now,
        })
        .onConflict((oc) => oc.column("slug").doNothing())
        .executeTakeFirst();
      platforms += Number(result.numInsertedOrUpdatedRows ?? 0);
    }
    let settings = 0;
    for (const [key, value] of Object.entries(DEFAULT_SETTINGS)) {
      const result = await trx
        .insertInto("settings")
        .values({ key, value, updated_at: now })
        .onConflict((oc) => oc.column("key").doNothing())
        .executeTakeFirst();
      settings += Number(result.numInsertedOrUpdatedRows ?? 0);
    }
    // The seeded platforms' claim steps (never a reward amount): decision 230.
    await seedClaimSteps(trx, now);
    return { platforms, settings };
  });
}
