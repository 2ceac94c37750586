import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
/**
 * The run's scratch folder: tests/.tmp, or a folder of its own that a vitest config names in
 * TEST_TMP_DIR, so that the SQLite and PostgreSQL passes can run at once (each empties only its own).
 */
export const TMP = path.resolve(ROOT, process.env.TEST_TMP_DIR ?? path.join("tests", ".tmp"));

/** A new, unique path under tests/.tmp (removed at the start of each run). */
export function tmpPath(name: string): string {
  fs.mkdirSync(TMP, { recursive: true });
  return path.join(TMP, `${crypto.randomUUID()}-${name}`);
}
