import { sql } from "kysely";
import { getDb, type DB } from "../client.server";
import type { AssistantProviderId } from "../schema";

/**
 * The admin assistant's own rows: stored conversations and messages, tokens spent. The read-only
 * queries its tools run over the site's rows are in assistant-queries.server.ts.
 */

// ---------- conversations ----------

export interface StoredMessageRow {
  role: "user" | "assistant" | "tool";
  content: string;
}

export async function listConversations(userId: number, limit = 50, db: DB = getDb()) {
  return db
    .selectFrom("assistant_conversations")
    .select(["id", "title", "provider", "model", "input_tokens", "output_tokens", "updated_at"])
    .where("user_id", "=", userId)
    .orderBy("updated_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

export async function getConversation(id: number, userId: number, db: DB = getDb()) {
  return db
    .selectFrom("assistant_conversations")
    .selectAll()
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
}

export async function listConversationMessages(
  conversationId: number,
  db: DB = getDb(),
): Promise<Array<StoredMessageRow & { created_at: string }>> {
  return db
    .selectFrom("assistant_messages")
    .select(["role", "content", "created_at"])
    .where("conversation_id", "=", conversationId)
    .orderBy("position", "asc")
    .execute();
}

export async function deleteConversation(id: number, userId: number, db: DB = getDb()): Promise<boolean> {
  const result = await db
    .deleteFrom("assistant_conversations")
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * One finished exchange, in one transaction: the conversation (created when `conversationId` is
 * null), the admin's message and every message of the answer, appended after the last one.
 * Answers the conversation's id, or null when the conversation is gone (deleted meanwhile).
 */
export async function saveExchange(
  input: {
    conversationId: number | null;
    userId: number;
    title: string;
    provider: AssistantProviderId;
    model: string;
    messages: StoredMessageRow[];
    tokens: { input: number; output: number };
  },
  now = new Date(),
  db: DB = getDb(),
): Promise<number | null> {
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    let id = input.conversationId;
    let position = 0;
    if (id === null) {
      const row = await trx
        .insertInto("assistant_conversations")
        .values({
          user_id: input.userId,
          title: input.title,
          provider: input.provider,
          model: input.model,
          input_tokens: input.tokens.input,
          output_tokens: input.tokens.output,
          created_at: at,
          updated_at: at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      id = row.id;
    } else {
      const updated = await trx
        .updateTable("assistant_conversations")
        .set((eb) => ({
          provider: input.provider,
          model: input.model,
          input_tokens: eb("input_tokens", "+", input.tokens.input),
          output_tokens: eb("output_tokens", "+", input.tokens.output),
          updated_at: at,
        }))
        .where("id", "=", id)
        .where("user_id", "=", input.userId)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return null;
      const last = await trx
        .selectFrom("assistant_messages")
        .select((eb) => eb.fn.max("position").as("max"))
        .where("conversation_id", "=", id)
        .executeTakeFirst();
      position = last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1;
    }
    const conversationId = id;
    await trx
      .insertInto("assistant_messages")
      .values(
        input.messages.map((m, i) => ({
          conversation_id: conversationId,
          position: position + i,
          role: m.role,
          content: m.content,
          created_at: at,
        })),
      )
      .execute();
    return conversationId;
  });
}

// ---------- tokens ----------

/**
 * The daily budget's counter (assistant_budget_days, decision 326): spent plus reserved tokens per
 * UTC day. A call reserves before it leaves and settles once answered; whatever runs the call (one
 * process or several, SQLite or PostgreSQL), the one conditional UPDATE decides who gets the room.
 */
export interface Reservation {
  day: string;
  tokens: number;
}

/** The counter moved by `delta`, never below zero (SQLite's max() is PostgreSQL's greatest()). */
const notBelowZero = (delta: number) => sql<number>`case when tokens + ${delta} < 0 then 0 else tokens + ${delta} end`;

/** Reserves `tokens` on `day` if the day's count stays within `limit`; null when there is no room. */
export async function reserveTokens(day: string, tokens: number, limit: number, db: DB = getDb()): Promise<Reservation | null> {
  const amount = Math.max(0, Math.ceil(tokens));
  await db
    .insertInto("assistant_budget_days")
    .values({ day, tokens: 0 })
    .onConflict((oc) => oc.column("day").doNothing())
    .execute();
  const result = await db
    .updateTable("assistant_budget_days")
    .set((eb) => ({ tokens: eb("tokens", "+", amount) }))
    .where("day", "=", day)
    .where((eb) => eb(eb("tokens", "+", amount), "<=", limit))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? { day, tokens: amount } : null;
}

/** Gives back a reservation whose call spent nothing we know of (it failed). */
export async function releaseTokens(reservation: Reservation, db: DB = getDb()): Promise<void> {
  await db
    .updateTable("assistant_budget_days")
    .set({ tokens: notBelowZero(-reservation.tokens) })
    .where("day", "=", reservation.day)
    .execute();
}

/**
 * One answered call, in one transaction: its reservation becomes what it spent on the counter, and
 * its usage row is written (kept when a conversation is deleted: the budget counts it).
 */
export async function settleTokens(
  reservation: Reservation,
  usage: { conversationId: number | null; provider: string; model: string; input: number; output: number },
  now = new Date(),
  db: DB = getDb(),
): Promise<void> {
  const input = Math.max(0, Math.round(usage.input));
  const output = Math.max(0, Math.round(usage.output));
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("assistant_budget_days")
      .set({ tokens: notBelowZero(input + output - reservation.tokens) })
      .where("day", "=", reservation.day)
      .execute();
    await trx
      .insertInto("assistant_usage")
      .values({
        conversation_id: usage.conversationId,
        provider: usage.provider,
        model: usage.model,
        input_tokens: input,
        output_tokens: output,
        created_at: now.toISOString(),
      })
      .execute();
  });
}

/** Tokens counted on `day` (spent, and reserved by calls under way). */
export async function tokensCountedOn(day: string, db: DB = getDb()): Promise<number> {
  const row = await db.selectFrom("assistant_budget_days").select("tokens").where("day", "=", day).executeTakeFirst();
  return Number(row?.tokens ?? 0);
}
