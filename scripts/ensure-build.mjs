// `npm start` (and Playwright's web server): build when there is no build yet or a source changed
// since the last one, and say so (decision 346). The argument names the caller in that line.
import { ensureBuild } from "./build-stamp.mjs";

ensureBuild(process.argv[2] ?? "npm start");
