import type { DB } from "./client.server";

const DAY = 86_400_000;
const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();

const DEMO_CODES: Record<string, string[]> = {
  tesla: ["JULIEN48213", "CAMILLE7765", "THOMAS90021"],
  revolut: ["MARIE3K9", "LUCASR21", "EMMA77Q"],
  "trade-republic": ["NJ4K8P2X", "AB12CD34"],
  igraal: ["SOPHIE-M", "ANTOINE75"],
  n26: ["HUGOD8462", "LEAB1290"],
  holy: ["CHLOE10", "MAXHOLY"],
};

/**
 * Example offers, so a first run shows cards, heroes and results as they are meant to look. Each
 * says it is an example (an amount written here would be invented): the admin writes the real one.
 */
const DEMO_OFFERS: Record<string, [fr: string, en: string, de: string, es: string]> = {
  tesla: [
    "Exemple : 1 000 km de Superchargeur offerts",
    "Example: 1,000 km of free Supercharging",
    "Beispiel: 1.000 km kostenloses Supercharging",
    "Ejemplo: 1000 km de Supercargador gratis",
  ],
  revolut: [
    "Exemple : 3 mois de Premium offerts",
    "Example: 3 months of Premium free",
    "Beispiel: 3 Monate Premium gratis",
    "Ejemplo: 3 meses de Premium gratis",
  ],
  "trade-republic": [
    "Exemple : une action offerte jusqu'à 200 €",
    "Example: a free share worth up to €200",
    "Beispiel: eine Gratisaktie im Wert bis 200 €",
    "Ejemplo: una acción gratis de hasta 200 €",
  ],
  igraal: [
    "Exemple : 3 € de bienvenue",
    "Example: €3 welcome bonus",
    "Beispiel: 3 € Willkommensbonus",
    "Ejemplo: 3 € de bienvenida",
  ],
  n26: ["Exemple : 20 € offerts", "Example: €20 free", "Beispiel: 20 € geschenkt", "Ejemplo: 20 € de regalo"],
};

/** Believable demo data (SEED_DEMO=1) so a first run looks alive. Idempotent. */
export async function seedDemo(db: DB): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const platforms = await trx.selectFrom("platforms").select(["id", "slug"]).execute();
    let codes = 0;
    for (const p of platforms) {
      for (const [i, code] of (DEMO_CODES[p.slug] ?? []).entries()) {
        const r = await trx
          .insertInto("referral_codes")
          .values({
            platform_id: p.id,
            code,
            referral_url: null,
            is_active: 1,
            is_permanent: i === 0 ? 1 : 0,
            expires_at: i === 0 ? null : new Date(Date.now() + 150 * DAY).toISOString(),
            created_at: iso((i + 1) * 3 * DAY),
          })
          .onConflict((oc) => oc.columns(["platform_id", "code"]).doNothing())
          .executeTakeFirst();
        codes += Number(r.numInsertedOrUpdatedRows ?? 0);
      }
    }
    let offers = 0;
    for (const p of platforms) {
      const texts = DEMO_OFFERS[p.slug];
      if (!texts) continue;
      const [offer_referee, offer_referee_en, offer_referee_de, offer_referee_es] = texts;
      // Only where the admin wrote nothing (the base data's claim steps, or no offer at all).
      const r = await trx
        .insertInto("platform_offers")
        .values({ platform_id: p.id, offer_referee, offer_referee_en, offer_referee_de, offer_referee_es, updated_at: iso(0) })
        .onConflict((oc) =>
          oc
            .column("platform_id")
            .doUpdateSet({ offer_referee, offer_referee_en, offer_referee_de, offer_referee_es })
            .where("platform_offers.offer_referee", "is", null),
        )
        .executeTakeFirst();
      offers += Number(r.numInsertedOrUpdatedRows ?? 0);
    }
    let suggestions = 0;
    const existingSuggestions = await trx.selectFrom("platform_suggestions").select("id").limit(1).execute();
    if (existingSuggestions.length === 0) {
      const demo = [
        {
          name: "Boursorama Banque",
          normalized_name: "boursoramabanque",
          website_url: "https://www.boursorama.com/",
          votes: 9,
          age: 12 * DAY,
        },
        { name: "Fortuneo", normalized_name: "fortuneo", website_url: "https://www.fortuneo.fr/", votes: 4, age: 5 * DAY },
        { name: "Bitpanda", normalized_name: "bitpanda", website_url: "https://www.bitpanda.com/", votes: 1, age: 3 * 3_600_000 },
      ];
      for (const s of demo) {
        const row = await trx
          .insertInto("platform_suggestions")
          .values({
            name: s.name,
            normalized_name: s.normalized_name,
            description: null,
            website_url: s.website_url,
            votes_count: s.votes,
            created_at: iso(s.age),
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        // votes_count always equals the number of vote rows: demo votes are rows too, from made-up clients.
        for (let v = 0; v < s.votes; v++) {
          await trx
            .insertInto("platform_suggestion_votes")
            .values({
              suggestion_id: row.id,
              ip_hash: `demo-address-${v}`,
              client_fingerprint: `demo-client-${row.id}-${v}`,
              created_at: iso(s.age / 2),
            })
            .execute();
        }
        suggestions++;
      }
    }
    let partnerships = 0;
    const existingPartners = await trx.selectFrom("partnerships").select("id").limit(1).execute();
    if (existingPartners.length === 0) {
      const demo = [
        // In the four languages, as an admin would write them: a German visitor reads German (the
        // French `description` is only the fallback for a translation left empty).
        {
          name: "Keepa",
          url: "https://keepa.com/",
          description: "Suivi des prix Amazon",
          description_en: "Amazon price tracking",
          description_de: "Amazon-Preisverlauf",
          description_es: "Seguimiento de precios de Amazon",
        },
        {
          name: "Poulpeo",
          url: "https://www.poulpeo.com/",
          description: "Cashback et codes promo",
          description_en: "Cashback and promo codes",
          description_de: "Cashback und Gutscheincodes",
          description_es: "Reembolsos y códigos promocionales",
        },
        {
          name: "Dealabs",
          url: "https://www.dealabs.com/",
          description: "Bons plans de la communauté",
          description_en: "Deals shared by the community",
          description_de: "Schnäppchen aus der Community",
          description_es: "Chollos de la comunidad",
        },
        {
          name: "Ma Reduc",
          url: "https://www.ma-reduc.com/",
          description: "Codes de réduction",
          description_en: "Discount codes",
          description_de: "Rabattcodes",
          description_es: "Códigos de descuento",
        },
      ];
      for (const [i, p] of demo.entries()) {
        await trx
          .insertInto("partnerships")
          .values({ ...p, logo_url: null, display_mode: "name", is_active: 1, display_order: i, created_at: iso((10 - i) * DAY) })
          .execute();
        partnerships++;
      }
    }
    let scores = 0;
    const existingScores = await trx.selectFrom("game_scores").select("id").limit(1).execute();
    if (existingScores.length === 0) {
      const demo = [
        ["Étoile", 420, "desktop"],
        ["Orion", 380, "desktop"],
        ["Nova", 250, "mobile"],
        ["Lyra", 190, "mobile"],
      ] as const;
      for (const [i, [player_name, score, device_type]] of demo.entries()) {
        await trx
          .insertInto("game_scores")
          .values({ player_name, score, device_type, created_at: iso((i + 1) * DAY) })
          .execute();
        scores++;
      }
    }
    return `${codes} code(s), ${offers} offer(s), ${suggestions} suggestion(s), ${partnerships} partnership(s), ${scores} score(s)`;
  });
}
