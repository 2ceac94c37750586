import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SLOW_FILES } from "../support/slow-files-first";
import { ROOT } from "../support/paths";

describe("the slow files the test passes start first", () => {
  it("each still exists under its name (a renamed file would silently go back to the end)", () => {
    const missing = SLOW_FILES.filter((file) => !fs.existsSync(path.join(ROOT, file)));
    expect(missing).toEqual([]);
    expect(new Set(SLOW_FILES).size).toBe(SLOW_FILES.length);
  });
});
