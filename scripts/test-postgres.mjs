// npm run test:postgres — the integration suite's PostgreSQL pass (vitest.postgres.config.ts) when
// PostgreSQL's server binaries are on this machine; otherwise says so plainly and skips.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const bin = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";
if (!["initdb", "pg_ctl", "postgres"].every((name) => fs.existsSync(path.join(bin, name)))) {
  console.log(
    `\n*** PostgreSQL pass SKIPPED: no PostgreSQL server binaries in ${bin} (apt-get install postgresql-15, or set PG_BIN). ` +
      "Only the SQLite pass ran. ***\n",
  );
  process.exit(0);
}
console.log(`== integration suite on PostgreSQL (${bin})`);
const result = spawnSync("npx", ["vitest", "run", "--config", "vitest.postgres.config.ts", ...process.argv.slice(2)], {
  stdio: "inherit",
});
process.exit(result.status ?? 1);
