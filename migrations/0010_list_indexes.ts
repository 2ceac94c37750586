import type { Kysely } from "kysely";
import { isPostgres } from "./portable";

// `any`: a migration is frozen in time and must not depend on today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * Indexes for the paged lists (keyset order: a date or a count, then the id), and the lengths the
 * similar-name check filters suggestions by.
 *
 * On SQLite an index ends with the rowid (the id) by itself, so the draw log's and the codes'
 * existing (platform_id, created_at) and (created_at) indexes already serve the (created_at, id)
 * order: those two tables, written by every draw, get no second index there. PostgreSQL needs the
 * id in the index for the row comparison to be an index condition.
 */
export async function up(db: Db): Promise<void> {
  const index = (name: string, table: string, columns: string[]) =>
    db.schema.createIndex(name).on(table).columns(columns).execute();

  if (isPostgres(db)) {
    await index("referral_codes_platform_created_id_idx", "referral_codes", ["platform_id", "created_at", "id"]);
    await index("random_requests_created_id_idx", "random_requests", ["created_at", "id"]);
    await index("random_requests_platform_created_id_idx", "random_requests", ["platform_id", "created_at", "id"]);
    await index("deletion_requests_created_id_idx", "deletion_requests", ["created_at", "id"]);
    await index("game_scores_created_id_idx", "game_scores", ["created_at", "id"]);
    await index("platforms_created_id_idx", "platforms", ["created_at", "id"]);
  }
  await index("deletion_requests_status_created_idx", "deletion_requests", ["status", "created_at", "id"]);
  await index("deletion_requests_platform_created_idx", "deletion_requests", ["platform_id", "created_at", "id"]);
  await index("game_scores_device_created_idx", "game_scores", ["device_type", "created_at", "id"]);
  await index("platform_suggestions_votes_idx", "platform_suggestions", ["votes_count", "id"]);
  await index("platform_suggestions_status_votes_idx", "platform_suggestions", ["status", "votes_count", "id"]);
  await index("partnerships_display_idx", "partnerships", ["display_order", "id"]);

  // The similar-name check reads only suggestions whose name lengths could score above the
  // threshold: both lengths are stored, and filled here for old rows (`storedNameLengths` below).
  await db.schema.alterTable("platform_suggestions").addColumn("name_length", "integer").execute();
  await db.schema.alterTable("platform_suggestions").addColumn("core_length", "integer").execute();
  for (let after = 0; ;) {
    const rows: Array<{ id: number; name: string }> = await db
      .selectFrom("platform_suggestions")
      .select(["id", "name"])
      .where("id", ">", after)
      .orderBy("id")
      .limit(500)
      .execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      const lengths = storedNameLengths(row.name);
      await db
        .updateTable("platform_suggestions")
        .set({ name_length: lengths.name, core_length: lengths.core })
        .where("id", "=", row.id)
        .execute();
    }
    after = rows[rows.length - 1]!.id;
  }
  await index("platform_suggestions_name_length_idx", "platform_suggestions", ["name_length"]);
  await index("platform_suggestions_core_length_idx", "platform_suggestions", ["core_length"]);
}

/**
 * The lengths as the app computed them when this migration shipped (its `nameLengths`, then in
 * app/features/community/similarity.ts), written out here so that this migration stays as it ran:
 * a migration never imports app code, which may change after it. The normalized name: accents and
 * non-alphanumerics removed, lower case; the core: the same without trailing common words.
 * tests/unit/similarity.test.ts checks that the app still stores the same lengths; if the app's rule
 * changes, a new migration recomputes the stored lengths.
 */
export function storedNameLengths(name: string): { name: number; core: number } {
  const folded = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
  const words = folded.split(/[^a-z0-9]+/).filter(Boolean);
  while (words.length > 1 && COMMON_SUFFIXES_0010.has(words[words.length - 1]!)) words.pop();
  return { name: folded.replace(/[^a-z0-9]/g, "").length, core: words.join("").length };
}

const COMMON_SUFFIXES_0010 = new Set([
  "app",
  "application",
  "bank",
  "banque",
  "bancaire",
  "banca",
  "banco",
  "business",
  "card",
  "carte",
  "com",
  "de",
  "es",
  "eu",
  "fr",
  "france",
  "group",
  "groupe",
  "io",
  "official",
  "officiel",
  "online",
  "pro",
]);

export async function down(db: Db): Promise<void> {
  for (const name of [
    "platform_suggestions_core_length_idx",
    "platform_suggestions_name_length_idx",
    "partnerships_display_idx",
    "platform_suggestions_status_votes_idx",
    "platform_suggestions_votes_idx",
    "game_scores_device_created_idx",
    "deletion_requests_platform_created_idx",
    "deletion_requests_status_created_idx",
  ]) {
    await db.schema.dropIndex(name).execute();
  }
  if (isPostgres(db)) {
    for (const name of [
      "platforms_created_id_idx",
      "game_scores_created_id_idx",
      "deletion_requests_created_id_idx",
      "random_requests_platform_created_id_idx",
      "random_requests_created_id_idx",
      "referral_codes_platform_created_id_idx",
    ]) {
      await db.schema.dropIndex(name).execute();
    }
  }
  await db.schema.alterTable("platform_suggestions").dropColumn("core_length").execute();
  await db.schema.alterTable("platform_suggestions").dropColumn("name_length").execute();
}
