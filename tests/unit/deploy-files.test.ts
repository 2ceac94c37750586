import fs from "node:fs";
import { describe, expect, it } from "vitest";

describe("deploy files", () => {
  it("the image runs npm start's own command, with no npm in between (npm does not pass SIGTERM on)", () => {
    const start = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: { start: string } }).scripts.start;
    const cmd = /^CMD (\[.*\])$/m.exec(fs.readFileSync("Dockerfile", "utf8"))?.[1];
    expect(cmd).toBeDefined();
    expect((JSON.parse(cmd!) as string[]).join(" ")).toBe(start);
  });

  it("installs packages as published: no postinstall, no patches of dependencies", () => {
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as {
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
    };
    expect(pkg.scripts.postinstall).toBeUndefined();
    expect(pkg.dependencies["patch-package"]).toBeUndefined();
    expect(fs.existsSync("patches")).toBe(false);
    expect(fs.readFileSync("Dockerfile", "utf8")).not.toMatch(/patches/);
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
