// `npm start` on a fresh clone: build once when there is no build yet.
import { execSync } from "node:child_process";
import fs from "node:fs";

if (!fs.existsSync("build/server.mjs") || !fs.existsSync("build/server/index.js") || !fs.existsSync("build/site.css")) {
  console.log("No build found: building once (about 10 s)...");
  execSync("npm run build", { stdio: "inherit" });
}
