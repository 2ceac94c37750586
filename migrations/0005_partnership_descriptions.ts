import { sql, type Kysely } from "kysely";

// `any`: a migration is frozen in time and must not depend on today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

const LANGUAGES = ["en", "de", "es"] as const;

/**
 * A partnership's description per language, like a platform's: `description` stays the French
 * text (the default, and the fallback when a translation is empty).
 */
export async function up(db: Db): Promise<void> {
  for (const lng of LANGUAGES) {
    const column = `description_${lng}`;
    await db.schema
      .alterTable("partnerships")
      .addColumn(column, "text", (c) => c.check(sql`${sql.ref(column)} IS NULL OR length(${sql.ref(column)}) <= 500`))
      .execute();
  }
  // Revolut's seeded gradient ended near-black, invisible on the dark theme: only the untouched seed value changes.
  await db
    .updateTable("platforms")
    .set({ gradient_to: "#4338ca" })
    .where("slug", "=", "revolut")
    .where("gradient_to", "=", "#191c1f")
    .execute();
}

export async function down(db: Db): Promise<void> {
  for (const lng of LANGUAGES) await db.schema.alterTable("partnerships").dropColumn(`description_${lng}`).execute();
}
