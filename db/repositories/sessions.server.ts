import crypto from "node:crypto";
import { runWrite } from "../availability.server";
import { getDb, type DB } from "../client.server";

/** Idle lifetime, renewed while the admin works (rolling), within an absolute cap. */
const SESSION_IDLE_MS = 7 * 24 * 3600 * 1000;
export const SESSION_MAX_MS = 30 * 24 * 3600 * 1000;
const RENEW_AFTER_MS = 24 * 3600 * 1000;

export async function createSession(userId: number, db: DB = getDb()): Promise<string> {
  const id = crypto.randomBytes(32).toString("base64url");
  const now = Date.now();
  await db
    .insertInto("sessions")
    .values({
      id,
      user_id: userId,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + SESSION_IDLE_MS).toISOString(),
    })
    .execute();
  return id;
}

export interface SessionUser {
  id: number;
  email: string;
  isAdmin: boolean;
}

/**
 * The user behind a live session: not expired, not older than the absolute cap, not issued before
 * the last password change, and still holding the admin role. Renews the idle expiry once a day.
 */
export async function getSessionUser(sessionId: string, db: DB = getDb()): Promise<SessionUser | null> {
  const row = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .leftJoin("user_roles", (join) => join.onRef("user_roles.user_id", "=", "users.id").on("user_roles.role", "=", "admin"))
    .select([
      "sessions.id",
      "sessions.created_at",
      "sessions.expires_at",
      "users.id as user_id",
      "users.email",
      "users.password_changed_at",
      "user_roles.role",
    ])
    .where("sessions.id", "=", sessionId)
    .executeTakeFirst();
  if (!row) return null;
  const now = Date.now();
  const created = Date.parse(row.created_at);
  const expires = Date.parse(row.expires_at);
  // Both writes below can wait for a later request: a database that refuses writes for now (a lock
  // held elsewhere, a full disk) must not turn an admin's page into an error.
  if (expires <= now || now - created > SESSION_MAX_MS || created < Date.parse(row.password_changed_at)) {
    await runWrite("session expiry", () => deleteSession(sessionId, db), "skip");
    return null;
  }
  if (expires - now < SESSION_IDLE_MS - RENEW_AFTER_MS) {
    await runWrite(
      "session renewal",
      () =>
        db
          .updateTable("sessions")
          .set({ expires_at: new Date(now + SESSION_IDLE_MS).toISOString() })
          .where("id", "=", sessionId)
          .execute(),
      "skip",
    );
  }
  return { id: row.user_id, email: row.email, isAdmin: row.role === "admin" };
}

export async function deleteSession(sessionId: string, db: DB = getDb()): Promise<void> {
  await db.deleteFrom("sessions").where("id", "=", sessionId).execute();
}
