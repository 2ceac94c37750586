// The e2e database is created by the server itself (migrations on start); nothing to do here
// but make sure a stale file from an earlier run never leaks in. The webServer starts after this.
import fs from "node:fs";
import path from "node:path";

export default function globalSetup() {
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(path.resolve(`tests/.tmp/e2e.db${suffix}`), { force: true });
}
