import { execFile, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, tmpPath } from "../support/paths";
import { postForm, startServer, type RunningServer } from "../support/server";
import { LANGUAGES, sitemapPaths, withLng } from "../support/site-pages";

/**
 * The Nu Html Checker (vnu-jar, pinned in devDependencies; it needs Java 11 or later: .ci/run
 * installs Debian's default-jre-headless where there is none) over the public pages in 4 languages
 * and the forms' error pages: 0 errors other than the one streaming writes by design (Remix's
 * `<script>` after `</html>`, where the checker stops; everything before it is checked).
 */
const VNU = path.join(ROOT, "node_modules/vnu-jar/build/dist/vnu.jar");
const hasJava = spawnSync("java", ["-version"]).status === 0;
// CI installs Java: there a missing one is a failure, not a skip.
const runs = hasJava || process.env.CI === "true";

let server: RunningServer;
beforeAll(async () => {
  if (runs) server = await startServer({ SEED_DEMO: "1", SITE_URL: "https://parrainly.test" });
});
afterAll(async () => {
  await server?.stop();
});

const STREAMING_SCRIPT = /^Stray start tag “script”\.$|^Cannot recover after last error/;

interface NuMessage {
  type: string;
  subType?: string;
  url: string;
  message: string;
  extract?: string;
}

describe.runIf(runs)("Nu Html Checker: 0 errors", () => {
  it("over every sitemap page in 4 languages and the forms' error pages", async () => {
    const paths = await sitemapPaths(server.url, "https://parrainly.test");
    const dir = tmpPath("nu-pages");
    fs.mkdirSync(dir, { recursive: true });
    let n = 0;
    const save = async (response: Response) => fs.writeFileSync(path.join(dir, `page-${++n}.html`), await response.text());
    for (const p of paths) for (const lng of LANGUAGES) await save(await fetch(`${server.url}${withLng(p, lng)}`));
    for (const lng of LANGUAGES) {
      const cookie = `language=${lng}`;
      await save(await postForm(`${server.url}/submit`, { intent: "submit" }, { cookie }));
      await save(await postForm(`${server.url}/suggest-platform`, { intent: "suggest" }, { cookie }));
    }
    expect(n).toBeGreaterThan(80);
    // One Java start for every page; the checker exits 1 when it reports anything, so the report is read either way.
    const output = await promisify(execFile)("java", ["-jar", VNU, "--errors-only", "--format", "json", dir], {
      maxBuffer: 64 * 1024 * 1024,
    }).then(
      (done) => done.stderr,
      (failed: { stderr?: string }) => failed.stderr ?? "",
    );
    const { messages } = JSON.parse(output) as { messages: NuMessage[] };
    const errors = messages
      .filter((m) => m.type === "error" || m.subType === "fatal")
      .filter((m) => !STREAMING_SCRIPT.test(m.message))
      .map((m) => `${path.basename(m.url)}: ${m.message} ${m.extract ?? ""}`);
    expect(errors).toEqual([]);
    // The checker did read the pages: each stopped at the streaming script, the only error allowed.
    expect(messages.filter((m) => STREAMING_SCRIPT.test(m.message)).length).toBeGreaterThanOrEqual(n);
  }, 300_000);
});
