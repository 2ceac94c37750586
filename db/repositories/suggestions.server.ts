import { sql, type SqlBool } from "kysely";
import { getDb, getDialect, type DB } from "../client.server";
import { RowGoneError } from "../errors.server";
import { boundedCount, COUNT_CAP, keysetPage, type Keyset, type PageRequest } from "../keyset";
import type { NewPlatform, RequestStatus } from "../schema";
import { createPlatform } from "./platforms.server";

/** Platform suggestions: the public list, the visitor's writes (suggest, vote), and the admin's moderation. */

/** Most votes first; among equal votes the newest (ids grow with time). */
const SUGGESTION_ORDER: Keyset = {
  direction: "desc",
  keys: [
    { column: "votes_count", field: "votes_count", type: "int" },
    { column: "id", field: "id", type: "int" },
  ],
};
const NEWEST_ORDER: Keyset = { direction: "desc", keys: [{ column: "id", field: "id", type: "int" }] };

export type SuggestionSort = "top" | "new";

/** One page of the pending and approved suggestions, most voted or newest first; and how many there are. */
export async function listPublicSuggestions(sort: SuggestionSort, page: PageRequest, db: DB = getDb()) {
  const query = db.selectFrom("platform_suggestions").where("status", "in", ["pending", "approved"]);
  const [rows, total] = await Promise.all([
    keysetPage(
      query.select(["id", "name", "description", "website_url", "status", "votes_count", "created_at"]),
      sort === "new" ? NEWEST_ORDER : SUGGESTION_ORDER,
      page,
    ),
    boundedCount(db, query, COUNT_CAP),
  ]);
  return { ...rows, total };
}

/** One side of the similar-name prefilter (similarity.ts `similarityFilters`): a stored name is read only when it could score. */
interface NameFilter {
  length: number;
  min: number;
  max: number;
  pairs: string[];
}

/**
 * The names a new suggestion is compared with: all platforms (active or not; a short list the
 * admin curates) and the suggestions still visible (a rejected one may be proposed again) that
 * pass the prefilter on their normalized name or on their core: a length in range (indexed) and
 * enough of the typed name's letter pairs (counted by the database, so the names that cannot
 * score are never sent to the application). Rows written without lengths are always read.
 */
export async function listNameCandidates(
  filters: { name: NameFilter; core: NameFilter },
  pairsLostPerChar: number,
  db: DB = getDb(),
) {
  const side = (f: NameFilter, column: "name_length" | "core_length") => {
    const present = f.pairs.length
      ? sql.join(
          f.pairs.map((pair) => sql`case when normalized_name like ${`%${pair}%`} then 1 else 0 end`),
          sql` + `,
        )
      : sql`0`;
    // Numbers the application computed, written as literals: PostgreSQL types them (a parameter
    // in arithmetic has no type it can infer).
    const n = (value: number) => sql.lit(value);
    const longer = sql`case when ${sql.ref(column)} > ${n(f.length)} then ${sql.ref(column)} else ${n(f.length)} end`;
    // present >= pairs - 2d with d < 0.3 max(n, m); the equality kept, against rounding.
    return sql<SqlBool>`(${sql.ref(column)} between ${n(f.min)} and ${n(f.max)} and ${present} + ${n(pairsLostPerChar)} * ${longer} + 0.000001 >= ${n(f.pairs.length)})`;
  };
  const [platforms, suggestions] = await Promise.all([
    db.selectFrom("platforms").select(["id", "name", "slug", "is_active"]).execute(),
    db
      .selectFrom("platform_suggestions")
      .select(["id", "name"])
      .where("status", "in", ["pending", "approved"])
      .where((eb) =>
        eb.or([
          side(filters.name, "name_length"),
          side(filters.core, "core_length"),
          eb("name_length", "is", null),
          eb("core_length", "is", null),
        ]),
      )
      .execute(),
  ]);
  return [
    // A live platform's slug: the similar names link to its page.
    ...platforms.map((p) => ({ id: p.id, name: p.name, kind: "platform" as const, slug: p.is_active ? p.slug : null })),
    ...suggestions.map((s) => ({ id: s.id, name: s.name, kind: "suggestion" as const })),
  ];
}

export async function getSuggestion(id: number, db: DB = getDb()) {
  return db.selectFrom("platform_suggestions").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function createSuggestion(
  input: {
    name: string;
    normalizedName: string;
    lengths: { name: number; core: number };
    description: string | null;
    websiteUrl: string | null;
  },
  db: DB = getDb(),
) {
  return db
    .insertInto("platform_suggestions")
    .values({
      name: input.name,
      normalized_name: input.normalizedName,
      name_length: input.lengths.name,
      core_length: input.lengths.core,
      description: input.description,
      website_url: input.websiteUrl,
      status: "pending",
      votes_count: 0,
      created_at: new Date().toISOString(),
    })
    .returning(["id", "name"])
    .executeTakeFirstOrThrow();
}

/** Which of `suggestionIds` (one page) this client (cookie fingerprint) already voted for. */
export async function listVotedSuggestionIds(
  clientFingerprint: string,
  suggestionIds: number[],
  db: DB = getDb(),
): Promise<Set<number>> {
  if (suggestionIds.length === 0) return new Set();
  const rows = await db
    .selectFrom("platform_suggestion_votes")
    .select("suggestion_id")
    .where("client_fingerprint", "=", clientFingerprint)
    .where("suggestion_id", "in", suggestionIds)
    .execute();
  return new Set(rows.map((r) => r.suggestion_id));
}

export type VoteResult = "voted" | "already-voted" | "address-cap" | "not-found";

/**
 * One vote, one transaction: the vote row and the counter move together or not at all.
 * The unique index (suggestion_id, client_fingerprint) settles races between parallel repeats:
 * `on conflict do nothing` inserts no row for the loser, which then leaves the counter alone.
 */
export async function castVote(
  input: { suggestionId: number; clientFingerprint: string; ipHash: string; maxVotesPerAddress: number },
  db: DB = getDb(),
): Promise<VoteResult> {
  return db.transaction().execute(async (trx) => {
    // PostgreSQL runs votes for one suggestion concurrently: the row lock makes them take turns,
    // so the per-address cap counts the vote before (SQLite's writes already take turns).
    const suggestion = await trx
      .selectFrom("platform_suggestions")
      .select(["id", "status"])
      .where("id", "=", input.suggestionId)
      .$if(getDialect() === "postgres", (qb) => qb.forUpdate())
      .executeTakeFirst();
    if (!suggestion || suggestion.status === "rejected") return "not-found";

    const mine = await trx
      .selectFrom("platform_suggestion_votes")
      .select("id")
      .where("suggestion_id", "=", input.suggestionId)
      .where("client_fingerprint", "=", input.clientFingerprint)
      .executeTakeFirst();
    if (mine) return "already-voted";

    const fromAddress = await trx
      .selectFrom("platform_suggestion_votes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("suggestion_id", "=", input.suggestionId)
      .where("ip_hash", "=", input.ipHash)
      .executeTakeFirstOrThrow();
    if (Number(fromAddress.n) >= input.maxVotesPerAddress) return "address-cap";

    const inserted = await trx
      .insertInto("platform_suggestion_votes")
      .values({
        suggestion_id: input.suggestionId,
        ip_hash: input.ipHash,
        client_fingerprint: input.clientFingerprint,
        created_at: new Date().toISOString(),
      })
      .onConflict((oc) => oc.columns(["suggestion_id", "client_fingerprint"]).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return "already-voted";

    await trx
      .updateTable("platform_suggestions")
      .set((eb) => ({ votes_count: eb("votes_count", "+", 1) }))
      .where("id", "=", input.suggestionId)
      .execute();
    return "voted";
  });
}

// ---------- moderation ----------

/** One page in the public order (most votes, then newest), of one status or all; and how many match. */
export async function listAdminSuggestions(status: RequestStatus | null, page: PageRequest, db: DB = getDb()) {
  let query = db.selectFrom("platform_suggestions");
  if (status) query = query.where("status", "=", status);
  const [rows, total] = await Promise.all([
    keysetPage(query.selectAll(), SUGGESTION_ORDER, page),
    boundedCount(db, query, COUNT_CAP),
  ]);
  return { ...rows, total };
}

/**
 * Approval, in one transaction: the platform is created (inactive, to be finished by the admin),
 * then the suggestion is marked approved. A taken slug throws SlugTakenError, a suggestion no
 * longer pending RowGoneError; either way nothing is written.
 */
export async function approveSuggestionAsPlatform(
  suggestionId: number,
  values: Omit<NewPlatform, "created_at" | "is_active">,
  db: DB = getDb(),
) {
  return db.transaction().execute(async (trx) => {
    const pending = await trx
      .selectFrom("platform_suggestions")
      .select("id")
      .where("id", "=", suggestionId)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (!pending) throw new RowGoneError();
    const platform = await createPlatform({ ...values, is_active: 0 }, trx);
    const marked = await trx
      .updateTable("platform_suggestions")
      .set({ status: "approved" })
      .where("id", "=", suggestionId)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) !== 1) throw new RowGoneError();
    return platform;
  });
}

export async function rejectSuggestion(id: number, db: DB = getDb()): Promise<boolean> {
  const result = await db
    .updateTable("platform_suggestions")
    .set({ status: "rejected" })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
