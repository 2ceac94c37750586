import crypto from "node:crypto";
import { getDialect, getPgPool } from "./client.server";

/**
 * One process at a time across the site (decision 367). On PostgreSQL, a session advisory lock in
 * class `SITE_LOCK_CLASS`, keyed by the job's name, held on a connection of its own for the whole
 * run: a background job (clean-up, roll-up, retention, platform deletions) or an assistant's
 * exchange runs on one process; another process that finds the lock taken skips (`{ led: false }`),
 * whatever the number of VMs. A process that dies lets go with its connection. On SQLite one process
 * owns the file: `run` just runs.
 *
 * Classes in use: draws 1901, the clean-up's and the history job's own transaction locks 1902/1 and
 * 1902/2, these locks 1904.
 */
const SITE_LOCK_CLASS = 1904;

/** The lock's second key: a stable 32-bit number for `name`. */
function siteLockKey(name: string): number {
  return crypto.createHash("sha256").update(name).digest().readInt32BE(0);
}

/**
 * Takes the site's lock `name` if no process holds it: the function returned lets it go (once);
 * null when another process (or this one) holds it.
 */
export async function holdSiteLock(name: string): Promise<(() => Promise<void>) | null> {
  if (getDialect() !== "postgres") return async () => {};
  const client = await getPgPool().connect();
  const key = siteLockKey(name);
  try {
    const { rows } = await client.query<{ locked: boolean }>("select pg_try_advisory_lock($1, $2) as locked", [
      SITE_LOCK_CLASS,
      key,
    ]);
    if (rows[0]?.locked !== true) {
      client.release();
      return null;
    }
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    // A connection that cannot say unlock is ended, not pooled: its lock goes with it.
    let broken: Error | undefined;
    await client.query("select pg_advisory_unlock($1, $2)", [SITE_LOCK_CLASS, key]).catch((error: Error) => (broken = error));
    client.release(broken);
  };
}

/** `run` under the site's lock `name`; `{ led: false }` without running it when another process holds it. */
export async function asSiteLeader<T>(name: string, run: () => Promise<T>): Promise<{ led: true; value: T } | { led: false }> {
  const release = await holdSiteLock(name);
  if (!release) return { led: false };
  try {
    return { led: true, value: await run() };
  } finally {
    await release();
  }
}
