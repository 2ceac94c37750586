import { getDb, type DB } from "../client.server";
import { DEFAULT_SETTINGS, SETTING_KEYS, type SettingKey } from "../seed-data";
import { publish } from "~/utils/events.server";

export type Settings = Record<SettingKey, string>;

// Settings are read on every page; one process owns the database, so an in-memory copy
// invalidated on write is always current.
let cached: Settings | null = null;

function isSettingKey(key: string): key is SettingKey {
  return (SETTING_KEYS as string[]).includes(key);
}

export async function getSettings(db: DB = getDb()): Promise<Settings> {
  if (cached) return cached;
  const rows = await db.selectFrom("settings").select(["key", "value"]).execute();
  const settings: Settings = { ...DEFAULT_SETTINGS };
  for (const row of rows) if (isSettingKey(row.key)) settings[row.key] = row.value;
  cached = settings;
  return settings;
}

export async function getSetting(key: SettingKey): Promise<string> {
  return (await getSettings())[key];
}

export async function saveSetting(key: SettingKey, value: string, db: DB = getDb()): Promise<void> {
  const now = new Date().toISOString();
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
  cached = null;
}
