import fs from "node:fs";
import { ensureBuild } from "../../scripts/build-stamp.mjs";
import { TMP } from "./paths";

/**
 * Whether this run may start the built server: yes unless every test file it names is a unit test
 * (`npx vitest run tests/unit` or `tests/unit/x.test.ts` needs no build; a run with no file named may).
 */
function mayUseBuild(args = process.argv.slice(2)): boolean {
  const files = args.filter((arg) => /\.test\.tsx?$/.test(arg) || arg.startsWith("tests/"));
  return files.length === 0 || files.some((file) => !/(^|\/)tests\/unit(\/|$)|^(app|db)\//.test(file));
}

export default function setup() {
  fs.rmSync(TMP, { recursive: true, force: true });
  fs.mkdirSync(TMP, { recursive: true });
  // Integration tests run the build: never a stale one (decision 346).
  if (mayUseBuild()) ensureBuild("vitest");
}
