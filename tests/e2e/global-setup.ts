// Playwright runs the webServer plugin BEFORE globalSetup: deleting the e2e database here would
// pull it from under the running server. The webServer command removes the stale file instead
// (playwright.config.ts); this only makes sure the folder exists.
import fs from "node:fs";
import path from "node:path";

export default function globalSetup() {
  fs.mkdirSync(path.resolve("tests/.tmp"), { recursive: true });
}
