import crypto from "node:crypto";
import { pseudonymKey, pseudonymPeriod } from "~db/repositories/pseudonym-keys.server";
import { databaseUrl } from "~db/client.server";

/**
 * A pseudonym for something that says who a visitor is (their address key, a rate limit's key):
 * an HMAC under the current month's key (db/repositories/pseudonym-keys.server.ts), never under the
 * session secret (decision 322). The same value gives the same pseudonym within a month, so one
 * address still counts once (a vote, the distinct addresses behind failed answers, a limit's
 * window); across months it does not, and once a month's key is removed its pseudonyms point at no
 * one. `purpose` keeps the pseudonyms of two uses apart.
 */

// The month's key, kept by the process for the month (keys per database: tests switch databases).
const keys = new Map<string, { period: string; key: Promise<Buffer> }>();

function keyFor(now: Date): Promise<Buffer> {
  const period = pseudonymPeriod(now);
  const database = databaseUrl();
  const held = keys.get(database);
  if (held?.period === period) return held.key;
  const key = pseudonymKey(now);
  keys.set(database, { period, key });
  // A failed read is not kept: the next request tries again.
  key.catch(() => {
    if (keys.get(database)?.key === key) keys.delete(database);
  });
  return key;
}

export async function pseudonymOf(purpose: string, value: string, now = new Date()): Promise<string> {
  return crypto
    .createHmac("sha256", await keyFor(now))
    .update(`${purpose}:${value}`)
    .digest("base64url");
}
