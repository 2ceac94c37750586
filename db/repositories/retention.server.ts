import { getDb, getDialect, type DB } from "../client.server";
import { RETENTION } from "../retention";
import { dropPastPseudonymKeys } from "./pseudonym-keys.server";

/**
 * The retention of visitors' data (decision 321): one function per table, each removing, in
 * batches of `batch` rows, what is past its period in db/retention.ts (the periods the privacy page
 * states). The history job keeps the others (draws, answers, game scores, assistant conversations:
 * history.server.ts) by the same list. Each answers how many rows it removed or emptied.
 */

const DAY_MS = 86_400_000;
const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();

/** The mark (in history_rollup) up to which answers' address pseudonyms are emptied. */
const ANSWER_ADDRESSES_MARK = "answer-addresses";

/**
 * Empties the address pseudonym of every answer older than answerAddressDays, also on the answers
 * a code keeps for good (its last few, which the pause rule reads): from then on they tell no
 * address apart. Walks from the mark it left last time, so the emptied answers are never read again.
 */
export async function forgetAnswerAddresses(now: Date, batch: number, db: DB = getDb()): Promise<number> {
  const cutoff = daysBefore(now, RETENTION.answerAddressDays);
  const mark = await db.selectFrom("history_rollup").select("until").where("name", "=", ANSWER_ADDRESSES_MARK).executeTakeFirst();
  let from = mark?.until ?? "";
  let done = 0;
  for (;;) {
    const emptied = await db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom("code_reports")
        .select(["id", "created_at"])
        .where("created_at", ">=", from)
        .where("created_at", "<", cutoff)
        .where("ip_hash", "!=", "")
        .orderBy("created_at")
        .limit(batch)
        .execute();
      if (rows.length > 0) {
        await trx
          .updateTable("code_reports")
          .set({ ip_hash: "" })
          .where(
            "id",
            "in",
            rows.map((r) => r.id),
          )
          .execute();
      }
      return { count: rows.length, last: rows.at(-1)?.created_at };
    });
    done += emptied.count;
    if (emptied.count < batch) break;
    // The next batch starts at the last one's instant (the rows emptied there are passed over).
    from = emptied.last!;
  }
  await db
    .insertInto("history_rollup")
    .values({ name: ANSWER_ADDRESSES_MARK, until: cutoff })
    .onConflict((oc) => oc.column("name").doUpdateSet({ until: cutoff }))
    .execute();
  return done;
}

/** Repeats a batched delete until a batch removes fewer rows than `batch`. */
async function inBatches(batch: number, step: () => Promise<{ numDeletedRows: bigint }>): Promise<number> {
  let removed = 0;
  for (;;) {
    const n = Number((await step()).numDeletedRows);
    removed += n;
    if (n < batch) return removed;
  }
}

/** Votes older than voteDays (their address and browser pseudonyms); the suggestion keeps its count. */
export function removeOldVotes(now: Date, batch: number, db: DB = getDb()): Promise<number> {
  const cutoff = daysBefore(now, RETENTION.voteDays);
  return inBatches(batch, () =>
    db
      .deleteFrom("platform_suggestion_votes")
      .where("id", "in", (eb) =>
        eb
          .selectFrom("platform_suggestion_votes")
          .select("id")
          .where("created_at", "<", cutoff)
          .orderBy("created_at")
          .limit(batch),
      )
      .executeTakeFirst(),
  );
}

/** Suggestions the admin decided, suggestionDays after they were made (their votes go with them). */
export function removeDecidedSuggestions(now: Date, batch: number, db: DB = getDb()): Promise<number> {
  const cutoff = daysBefore(now, RETENTION.suggestionDays);
  return inBatches(batch, () =>
    db
      .deleteFrom("platform_suggestions")
      .where("id", "in", (eb) =>
        eb
          .selectFrom("platform_suggestions")
          .select("id")
          .where("status", "in", ["approved", "rejected"])
          .where("created_at", "<", cutoff)
          .limit(batch),
      )
      .executeTakeFirst(),
  );
}

/** Deletion requests (the code named and the reason given) deletionRequestDays after the admin decided them. */
export function removeDecidedDeletionRequests(now: Date, batch: number, db: DB = getDb()): Promise<number> {
  const cutoff = daysBefore(now, RETENTION.deletionRequestDays);
  return inBatches(batch, () =>
    db
      .deleteFrom("deletion_requests")
      .where("id", "in", (eb) =>
        eb
          .selectFrom("deletion_requests")
          .select("id")
          .where("resolved_at", "<", cutoff)
          .where("status", "!=", "pending")
          .orderBy("resolved_at")
          .limit(batch),
      )
      .executeTakeFirst(),
  );
}

/** Removal requests removalRequestDays after the admin marked them done. */
export function removeDoneRemovalRequests(now: Date, batch: number, db: DB = getDb()): Promise<number> {
  const cutoff = daysBefore(now, RETENTION.removalRequestDays);
  return inBatches(batch, () =>
    db
      .deleteFrom("removal_requests")
      .where("id", "in", (eb) =>
        eb
          .selectFrom("removal_requests")
          .select("id")
          .where("resolved_at", "<", cutoff)
          .where("status", "=", "done")
          .orderBy("resolved_at")
          .limit(batch),
      )
      .executeTakeFirst(),
  );
}

/**
 * A deleted code's history (its keyed hash and counts) codeHistoryDays after its last deletion, on
 * code_history_deleted_idx; the lookup of a resubmitted code is by its key, the table's primary key.
 */
export function removeOldCodeHistory(now: Date, batch: number, db: DB = getDb()): Promise<number> {
  const cutoff = daysBefore(now, RETENTION.codeHistoryDays);
  return inBatches(batch, () =>
    db
      .deleteFrom("code_history")
      .where("code_key", "in", (eb) =>
        eb.selectFrom("code_history").select("code_key").where("deleted_at", "<", cutoff).orderBy("deleted_at").limit(batch),
      )
      .executeTakeFirst(),
  );
}

/**
 * Rate-limit windows that ended (PostgreSQL's `rate_limits`; SQLite keeps them in memory, where
 * they go as new ones come). The library also clears them now and then; this makes the page's
 * "at most an hour" hold whatever the library does.
 */
export async function removeEndedRateLimits(now: Date, db: DB = getDb()): Promise<number> {
  if (getDialect() !== "postgres") return 0;
  const result = await db.deleteFrom("rate_limits").where("expire", "<", now.getTime()).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface RetentionRunSummary {
  answerAddresses: number;
  votes: number;
  suggestions: number;
  deletionRequests: number;
  removalRequests: number;
  codeHistory: number;
  rateLimits: number;
  pseudonymKeys: number;
}

/**
 * Every table's retention once, in turn (each step in its own small transactions). A step not begun
 * when `signal` aborts (the server stops) waits for the next run.
 */
export async function runRetention(
  { now = new Date(), batch = 500, signal }: { now?: Date; batch?: number; signal?: AbortSignal } = {},
  db: DB = getDb(),
): Promise<RetentionRunSummary> {
  const steps: Array<[keyof RetentionRunSummary, () => Promise<number>]> = [
    ["answerAddresses", () => forgetAnswerAddresses(now, batch, db)],
    ["votes", () => removeOldVotes(now, batch, db)],
    ["suggestions", () => removeDecidedSuggestions(now, batch, db)],
    ["deletionRequests", () => removeDecidedDeletionRequests(now, batch, db)],
    ["removalRequests", () => removeDoneRemovalRequests(now, batch, db)],
    ["codeHistory", () => removeOldCodeHistory(now, batch, db)],
    ["rateLimits", () => removeEndedRateLimits(now, db)],
    ["pseudonymKeys", () => dropPastPseudonymKeys(now, db)],
  ];
  const summary: RetentionRunSummary = {
    answerAddresses: 0,
    votes: 0,
    suggestions: 0,
    deletionRequests: 0,
    removalRequests: 0,
    codeHistory: 0,
    rateLimits: 0,
    pseudonymKeys: 0,
  };
  for (const [name, step] of steps) {
    if (signal?.aborted) break;
    summary[name] = await step();
  }
  return summary;
}

/** For an operator's log line. */
export function describeRetentionRun(s: RetentionRunSummary): string {
  return Object.entries(s)
    .map(([what, n]) => `${what} ${n}`)
    .join(", ");
}
