import { sql, type Kysely } from "kysely";
import { withId } from "./portable";

// The admin assistant: stored conversations, their messages, and the tokens spent per call.
// `any`: a migration is frozen in time and must not depend on today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable("assistant_conversations")
    .$call(withId(db))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull().check(sql`length(title) BETWEEN 1 AND 200`))
    .addColumn("provider", "text", (c) => c.notNull().check(sql`provider IN ('anthropic', 'openai')`))
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("input_tokens", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("output_tokens", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("assistant_conversations_updated_idx").on("assistant_conversations").column("updated_at").execute();

  // One row per message in the provider-neutral shape (app/features/assistant/types.ts), as JSON.
  await db.schema
    .createTable("assistant_messages")
    .$call(withId(db))
    .addColumn("conversation_id", "integer", (c) => c.notNull().references("assistant_conversations.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull().check(sql`role IN ('user', 'assistant', 'tool')`))
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("assistant_messages_position_unique", ["conversation_id", "position"])
    .execute();

  // Tokens spent per provider call, kept when a conversation is deleted (the daily budget counts them).
  await db.schema
    .createTable("assistant_usage")
    .$call(withId(db))
    .addColumn("conversation_id", "integer", (c) => c.references("assistant_conversations.id").onDelete("set null"))
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("input_tokens", "integer", (c) => c.notNull().check(sql`input_tokens >= 0`))
    .addColumn("output_tokens", "integer", (c) => c.notNull().check(sql`output_tokens >= 0`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("assistant_usage_created_idx").on("assistant_usage").column("created_at").execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable("assistant_usage").execute();
  await db.schema.dropTable("assistant_messages").execute();
  await db.schema.dropTable("assistant_conversations").execute();
}
