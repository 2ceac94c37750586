import fs from "node:fs";
import { describe, expect, it } from "vitest";

describe("deploy files", () => {
  it("the image runs npm start's own command, with no npm in between (npm does not pass SIGTERM on)", () => {
    const start = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: { start: string } }).scripts.start;
    const cmd = /^CMD (\[.*\])$/m.exec(fs.readFileSync("Dockerfile", "utf8"))?.[1];
    expect(cmd).toBeDefined();
    expect((JSON.parse(cmd!) as string[]).join(" ")).toBe(start);
  });
});
