// npm run db:restore -- FILE [--at-next-start] — puts a backup back as the live database.
// Refuses while a server uses the database (its pid claim is live). With --at-next-start the
// backup is checked and staged beside the database; the server swaps it in at its next start.
import fs from "node:fs";
import { isIntact, liveClaimant, restoreInto, stagedRestoreFile } from "~db/backup.server";
import { getEnv, sqlitePathFromUrl } from "~/utils/env.server";

const args = process.argv.slice(2);
const atNextStart = args.includes("--at-next-start");
const backup = args.find((a) => !a.startsWith("--"));
if (!backup) {
  console.error("Usage: npm run db:restore -- <backup-file.db> [--at-next-start]");
  process.exit(2);
}
if (!fs.existsSync(backup)) {
  console.error(`No backup at ${backup}.`);
  process.exit(1);
}
const target = sqlitePathFromUrl(getEnv().DATABASE_URL);

if (atNextStart) {
  if (!isIntact(backup)) {
    console.error(`${backup} failed integrity_check; nothing staged.`);
    process.exit(1);
  }
  fs.copyFileSync(backup, stagedRestoreFile(target));
  console.log(`Staged ${backup}: the server replaces ${target} with it at its next start (restart it now).`);
  process.exit(0);
}

const pid = liveClaimant(target);
if (pid) {
  console.error(
    `A server (pid ${pid}) is using ${target}. Stop it first, or stage the restore with --at-next-start and restart the server.`,
  );
  process.exit(1);
}
try {
  // A restore staged earlier but never applied would otherwise come back at the next start.
  fs.rmSync(stagedRestoreFile(target), { force: true });
  restoreInto(backup, target);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
console.log(`Restored ${backup} into ${target}.`);
