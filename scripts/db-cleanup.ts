// npm run db:cleanup — removes expired temporary codes now (what the in-server job does hourly
// when enable_auto_cleanup is 'true'). An explicit operator command: it runs whatever the setting.
import fs from "node:fs";
import { closeDb } from "~db/client.server";
import { deleteExpiredTemporaryCodes } from "~db/repositories/code-cleanup.server";
import { getEnv, sqlitePathFromUrl } from "~/utils/env.server";

if (process.argv.slice(2).some((a) => a !== "--")) {
  console.error("Usage: npm run db:cleanup");
  process.exit(2);
}
const file = sqlitePathFromUrl(getEnv().DATABASE_URL);
if (!fs.existsSync(file)) {
  console.error(`No database at ${file}.`);
  process.exit(1);
}
const removed = await deleteExpiredTemporaryCodes();
await closeDb();
console.log(`[cleanup] removed ${removed} expired temporary code(s) from ${file}`);
