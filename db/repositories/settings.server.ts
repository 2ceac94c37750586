import { sql } from "kysely";
import { getDb, getDialect, listenPostgres, type DB } from "../client.server";
import { DEFAULT_SETTINGS, SETTING_KEYS, type SettingKey } from "../seed-data";
import { publish } from "../events.server";

export type Settings = Record<SettingKey, string>;

/**
 * Settings are read on every page, so each process keeps a copy, dropped on every write.
 * - SQLite: one process owns the database; its own writes are the only ones.
 * - PostgreSQL: other processes write too. Each write NOTIFYs a channel in its transaction; every
 *   process LISTENs (including the writer), drops its copy and forwards the change to its live
 *   settings stream. While the LISTEN connection is down nothing is cached (every read goes to the
 *   database), so a missed notification never leaves a stale copy.
 */
let cached: Settings | null = null;
// Bumped on every change and gap: a read that started before one must not cache what it read.
let generation = 0;
let listening: Promise<void> | null = null;
let listenerUp = false;

const CHANNEL = "parrainly_settings";

function isSettingKey(key: string): key is SettingKey {
  return (SETTING_KEYS as string[]).includes(key);
}

function listenForChanges(): Promise<void> {
  listening ??= listenPostgres(
    CHANNEL,
    (payload) => {
      generation++;
      cached = null;
      try {
        const change = JSON.parse(payload) as { key: string; value: string };
        publish("setting", change);
      } catch {
        // Not ours: the cache is dropped all the same.
      }
    },
    (up) => {
      generation++;
      cached = null;
      listenerUp = up;
    },
  );
  return listening;
}

/**
 * The last settings read, kept for when the database cannot be read: every page's layout reads the
 * settings, so without them a database out of reach (PostgreSQL restarting) turned every page into
 * the generic 500, hiding the page's own 503 with its message and Retry-After (decision 300).
 */
let lastRead: Settings | null = null;

export async function getSettings(db: DB = getDb()): Promise<Settings> {
  if (cached) return cached;
  const postgres = getDialect() === "postgres";
  try {
    if (postgres) await listenForChanges();
    const started = generation;
    const rows = await db.selectFrom("settings").select(["key", "value"]).execute();
    const settings: Settings = { ...DEFAULT_SETTINGS };
    for (const row of rows) if (isSettingKey(row.key)) settings[row.key] = row.value;
    if (generation === started && (!postgres || listenerUp)) cached = settings;
    lastRead = settings;
    return settings;
  } catch (error) {
    if (lastRead) return lastRead;
    throw error;
  }
}

export async function getSetting(key: SettingKey): Promise<string> {
  return (await getSettings())[key];
}

export async function saveSetting(key: SettingKey, value: string, db: DB = getDb()): Promise<void> {
  const now = new Date().toISOString();
  if (getDialect() === "postgres") {
    await listenForChanges();
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto("settings")
        .values({ key, value, updated_at: now })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: now }))
        .execute();
      // Delivered at commit, to every listening process (this one too, which then publishes).
      await sql`select pg_notify(${CHANNEL}, ${JSON.stringify({ key, value })})`.execute(trx);
    });
    generation++;
    cached = null;
    return;
  }
  await db
    .insertInto("settings")
    .values({ key, value, updated_at: now })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: now }))
    .execute();
  cached = null;
  publish("setting", { key, value });
}

/** Tests and database swaps. */
export function clearSettingsCache() {
  generation++;
  cached = null;
  lastRead = null;
  // A new database handle: its listener (if PostgreSQL) starts afresh with it.
  listening = null;
  listenerUp = false;
}
