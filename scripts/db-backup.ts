// npm run db:backup -- FILE — consistent online backup while the server runs: the same compact copy,
// checked with integrity_check, as the server's hourly backups (decision 283).
import fs from "node:fs";
import path from "node:path";
import { copyAndCheck } from "~db/backup.server";
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
const partial = `${target}.partial`;
fs.rmSync(partial, { force: true });
const started = Date.now();
if (!(await copyAndCheck(source, partial))) {
  fs.rmSync(partial, { force: true });
  console.error(`The copy of ${source} failed integrity_check; nothing written.`);
  process.exit(1);
}
fs.renameSync(partial, target);
console.log(`Backed up ${source} to ${target} (${fs.statSync(target).size} bytes, ${Date.now() - started} ms).`);
