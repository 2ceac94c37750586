import { getDb, getDialect, type DB } from "../client.server";

/** Public reads of platform suggestions and the visitor's writes (suggest, vote). Admin moderation lives elsewhere. */

/** Pending and approved suggestions, most voted first, then newest. */
export async function listPublicSuggestions(db: DB = getDb()) {
  return db
    .selectFrom("platform_suggestions")
    .select(["id", "name", "description", "website_url", "status", "votes_count", "created_at"])
    .where("status", "in", ["pending", "approved"])
    .orderBy("votes_count", "desc")
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
}

/**
 * Every name a new suggestion is compared with: all platforms (active or not) and the suggestions
 * still visible (a rejected one may be proposed again).
 */
export async function listNameCandidates(db: DB = getDb()) {
  const [platforms, suggestions] = await Promise.all([
    db.selectFrom("platforms").select(["id", "name"]).execute(),
    db.selectFrom("platform_suggestions").select(["id", "name"]).where("status", "in", ["pending", "approved"]).execute(),
  ]);
  return [
    ...platforms.map((p) => ({ id: p.id, name: p.name, kind: "platform" as const })),
    ...suggestions.map((s) => ({ id: s.id, name: s.name, kind: "suggestion" as const })),
  ];
}

export async function getSuggestion(id: number, db: DB = getDb()) {
  return db.selectFrom("platform_suggestions").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function createSuggestion(
  input: { name: string; normalizedName: string; description: string | null; websiteUrl: string | null },
  db: DB = getDb(),
) {
  return db
    .insertInto("platform_suggestions")
    .values({
      name: input.name,
      normalized_name: input.normalizedName,
      description: input.description,
      website_url: input.websiteUrl,
      status: "pending",
      votes_count: 0,
      created_at: new Date().toISOString(),
    })
    .returning(["id", "name"])
    .executeTakeFirstOrThrow();
}

/** Ids of the suggestions this client (cookie fingerprint) already voted for. */
export async function listVotedSuggestionIds(clientFingerprint: string, db: DB = getDb()): Promise<Set<number>> {
  const rows = await db
    .selectFrom("platform_suggestion_votes")
    .select("suggestion_id")
    .where("client_fingerprint", "=", clientFingerprint)
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
