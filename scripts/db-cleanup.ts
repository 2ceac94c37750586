// npm run db:cleanup — removes expired temporary codes now (what the in-server job does hourly
// when enable_auto_cleanup is 'true'; an explicit operator command: it runs whatever the setting),
// then rolls up the draw log and removes the old rows no rule needs (the in-server history job,
// decision 192). Safe while the server runs: small transactions.
import fs from "node:fs";
import { closeDb, databaseUrl, dialectOf, sqlitePath } from "~db/client.server";
import { deleteExpiredTemporaryCodes } from "~db/repositories/code-cleanup.server";
import { runHistoryJob } from "~db/repositories/history.server";
import { describeHistoryRun } from "~/features/admin/site/history-job.server";

if (process.argv.slice(2).some((a) => a !== "--")) {
  console.error("Usage: npm run db:cleanup");
  process.exit(2);
}
const url = databaseUrl();
// A SQLite path that does not exist is a typo: opening it would create an empty database.
const where = dialectOf(url) === "sqlite" ? sqlitePath(url) : "PostgreSQL";
if (dialectOf(url) === "sqlite" && !fs.existsSync(where)) {
  console.error(`No database at ${where}.`);
  process.exit(1);
}
const removed = await deleteExpiredTemporaryCodes();
console.log(`[cleanup] removed ${removed} expired temporary code(s) from ${where}`);
const history = await runHistoryJob();
await closeDb();
console.log(`[history] ${describeHistoryRun(history)}`);
