// npm run db:backup -- FILE — consistent online backup (SQLite backup API) while the server runs.
import fs from "node:fs";
import path from "node:path";
import { openSqlite } from "~db/client.server";
import { getEnv, sqlitePathFromUrl } from "~/utils/env.server";

const target = process.argv[2];
if (!target || target.startsWith("-")) {
  console.error("Usage: npm run db:backup -- <backup-file.db>");
  process.exit(2);
}
const source = sqlitePathFromUrl(getEnv().DATABASE_URL);
if (!fs.existsSync(source)) {
  console.error(`No database at ${source}.`);
  process.exit(1);
}
fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
const sqlite = openSqlite(source);
const started = Date.now();
await sqlite.backup(target);
sqlite.close();
console.log(`Backed up ${source} to ${target} (${fs.statSync(target).size} bytes, ${Date.now() - started} ms).`);
