import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const TMP = path.join(ROOT, "tests", ".tmp");

/** A new, unique path under tests/.tmp (removed at the start of each run). */
export function tmpPath(name: string): string {
  fs.mkdirSync(TMP, { recursive: true });
  return path.join(TMP, `${crypto.randomUUID()}-${name}`);
}
