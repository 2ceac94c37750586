import fs from "node:fs";
import { describe, expect, it } from "vitest";

describe("deploy files", () => {
  it("the image runs npm start's own command, with no npm in between (npm does not pass SIGTERM on)", () => {
    const start = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: { start: string } }).scripts.start;
    const cmd = /^CMD (\[.*\])$/m.exec(fs.readFileSync("Dockerfile", "utf8"))?.[1];
    expect(cmd).toBeDefined();
    expect((JSON.parse(cmd!) as string[]).join(" ")).toBe(start);
  });

  it("every install applies the patches: npm ci's postinstall, with patches/ in the image before it and in the production smoke test", () => {
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as {
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
    };
    expect(pkg.scripts.postinstall).toBe("patch-package");
    // A production-only install (`npm ci --omit=dev`) runs the postinstall too.
    expect(pkg.dependencies["patch-package"]).toBeDefined();
    const dockerfile = fs.readFileSync("Dockerfile", "utf8");
    expect(dockerfile.indexOf("COPY patches ./patches")).toBeGreaterThan(-1);
    expect(dockerfile.indexOf("COPY patches ./patches")).toBeLessThan(dockerfile.indexOf("RUN npm ci"));
    expect(fs.readFileSync("scripts/ci-production-smoke.sh", "utf8")).toMatch(/^cp -r [^\n]* patches /m);
    expect(fs.readdirSync("patches").length).toBeGreaterThan(0);
  });

  it("Fly routes by /healthz/live (a full disk stops writes, not pages); /healthz is the operator's check", () => {
    const fly = fs.readFileSync("fly.toml", "utf8");
    const serviceCheck = /\[\[http_service\.checks\]\]([\s\S]*?)(?=\n\[)/.exec(fly)?.[1] ?? "";
    expect(serviceCheck).toMatch(/^\s*path = "\/healthz\/live"$/m);
    const monitoring = /\[checks\.database\]([\s\S]*?)(?=\n\[)/.exec(fly)?.[1] ?? "";
    expect(monitoring).toMatch(/^\s*path = "\/healthz"$/m);
    expect(monitoring).toMatch(/^\s*port = 8080$/m);
    expect(fly).toMatch(/^\s*internal_port = 8080$/m);
  });
});
