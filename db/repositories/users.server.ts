import crypto from "node:crypto";
import { promisify } from "node:util";
import { getDb, type DB } from "../client.server";

const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

// OWASP's scrypt setting for about 16 MiB of memory per hash, affordable on a small VM: N=2^14, r=8, p=5.
// PASSWORD_HASH_COST (N's exponent) is lowered by the test servers only, as Django's test settings
// do (decision 399): each hash keeps its own parameters, so verifying one never depends on it.
export const PASSWORD_HASH_COST = 14;
const params = () => ({ N: 2 ** (Number(process.env.PASSWORD_HASH_COST) || PASSWORD_HASH_COST), r: 8, p: 5 });
const KEY_LENGTH = 64;
const MAX_MEM = 64 * 1024 * 1024;

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const { N, r, p } = params();
  const key = await scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { N, r, p, maxmem: MAX_MEM });
  return `scrypt$${N}$${r}$${p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltB64, keyB64] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !saltB64 || !keyB64) return false;
  const expected = Buffer.from(keyB64, "base64");
  const key = await scrypt(password.normalize("NFKC"), Buffer.from(saltB64, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAX_MEM,
  });
  return crypto.timingSafeEqual(key, expected);
}

// Verifying against this when the email is unknown makes both answers take the same time.
let dummyHash: Promise<string> | undefined;
function getDummyHash() {
  return (dummyHash ??= hashPassword(crypto.randomBytes(16).toString("hex")));
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export interface VerifiedUser {
  id: number;
  email: string;
  isAdmin: boolean;
}

/** The user for these credentials, or null; same work whether the email exists or not. */
export async function verifyCredentials(email: string, password: string, db: DB = getDb()): Promise<VerifiedUser | null> {
  const user = await db
    .selectFrom("users")
    .select(["id", "email", "password_hash"])
    .where("email", "=", normalizeEmail(email))
    .executeTakeFirst();
  if (!user) {
    await verifyPassword(password, await getDummyHash());
    return null;
  }
  if (!(await verifyPassword(password, user.password_hash))) return null;
  return { id: user.id, email: user.email, isAdmin: await userIsAdmin(user.id, db) };
}

async function userIsAdmin(userId: number, db: DB = getDb()): Promise<boolean> {
  const row = await db
    .selectFrom("user_roles")
    .select("role")
    .where("user_id", "=", userId)
    .where("role", "=", "admin")
    .executeTakeFirst();
  return !!row;
}

/** Whether any account holds the admin role (the start says how to create one when none does). */
export async function anyAdmin(db: DB = getDb()): Promise<boolean> {
  return (
    (await db.selectFrom("user_roles").select("user_id").where("role", "=", "admin").limit(1).executeTakeFirst()) !== undefined
  );
}

/**
 * Creates the admin, or updates the password (revoking every session) and ensures the role.
 * Returns what happened, for the CLI and the start log.
 */
export async function upsertAdmin(
  email: string,
  password: string,
  db: DB = getDb(),
): Promise<"created" | "updated" | "unchanged"> {
  const normalized = normalizeEmail(email);
  const existing = await db
    .selectFrom("users")
    .select(["id", "password_hash"])
    .where("email", "=", normalized)
    .executeTakeFirst();
  if (existing && (await verifyPassword(password, existing.password_hash)) && (await userIsAdmin(existing.id, db)))
    return "unchanged";
  const passwordHash = await hashPassword(password);
  const now = new Date().toISOString();
  return db.transaction().execute(async (trx) => {
    let userId: number;
    if (existing) {
      await trx
        .updateTable("users")
        .set({ password_hash: passwordHash, password_changed_at: now })
        .where("id", "=", existing.id)
        .execute();
      await trx.deleteFrom("sessions").where("user_id", "=", existing.id).execute();
      userId = existing.id;
    } else {
      // Two instances starting at once with the same ADMIN_EMAIL (two VMs on one PostgreSQL) both
      // find no user: the second insert yields to the first one's row instead of failing the start.
      const row = await trx
        .insertInto("users")
        .values({ email: normalized, password_hash: passwordHash, created_at: now, password_changed_at: now })
        .onConflict((oc) => oc.column("email").doNothing())
        .returning("id")
        .executeTakeFirst();
      userId =
        row?.id ?? (await trx.selectFrom("users").select("id").where("email", "=", normalized).executeTakeFirstOrThrow()).id;
    }
    await trx
      .insertInto("user_roles")
      .values({ user_id: userId, role: "admin" })
      .onConflict((oc) => oc.columns(["user_id", "role"]).doNothing())
      .execute();
    return existing ? "updated" : "created";
  });
}
