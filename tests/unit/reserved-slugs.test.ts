import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RESERVED_SLUGS, SLUG_PATTERN } from "~/features/admin/catalog/slug";
import { platformCreateSchema } from "~/features/admin/catalog/schemas";
import { ROOT } from "../support/paths";

/**
 * The first URL segment of a flat-routes file name: `admin_.login` → `admin`, `robots[.]txt` →
 * `robots.txt`, `_index` / `$slug` / `$` → null (the home page, or a parameter: not a fixed path).
 */
function firstSegment(routeName: string): string | null {
  // Dots inside [] are literal; the others separate segments.
  const segments: string[] = [];
  let current = "";
  let escaped = false;
  for (const char of routeName) {
    if (char === "[") escaped = true;
    else if (char === "]") escaped = false;
    else if (char === "." && !escaped) {
      segments.push(current);
      current = "";
    } else current += char;
  }
  segments.push(current);
  for (const raw of segments) {
    if (raw.startsWith("(")) continue; // optional segment
    if (raw.startsWith("_")) continue; // pathless layout or _index
    const segment = raw.replace(/_$/, "");
    if (!segment || segment.startsWith("$")) return null;
    return segment;
  }
  return null;
}

function routeNames(): string[] {
  const dir = path.join(ROOT, "app", "routes");
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return [entry.name.replace(/\+$/, "")];
    if (/\.server\.tsx?$|\.css\.ts$|\.test\.tsx?$/.test(entry.name)) return [];
    const match = /^(.*)\.(tsx?|jsx?|mdx?)$/.exec(entry.name);
    return match ? [match[1]!] : [];
  });
}

describe("reserved slugs", () => {
  it("reads flat-route names the way Remix does", () => {
    expect(firstSegment("admin_.login")).toBe("admin");
    expect(firstSegment("robots[.]txt")).toBe("robots.txt");
    expect(firstSegment("feeds.platforms[.]atom")).toBe("feeds");
    expect(firstSegment("my-code.$token")).toBe("my-code");
    expect(firstSegment("_index")).toBeNull();
    expect(firstSegment("$slug.get-code")).toBeNull();
    expect(firstSegment("$")).toBeNull();
  });

  it("every route's first path segment is reserved (walks app/routes)", () => {
    const names = routeNames();
    expect(names.length).toBeGreaterThan(10);
    const segments = [...new Set(names.map(firstSegment).filter((s): s is string => s !== null))];
    expect(segments).toContain("platforms");
    expect(segments.filter((s) => !RESERVED_SLUGS.has(s))).toEqual([]);
  });

  it("every file served from the site's root and the server's own prefixes are reserved", () => {
    const publicFiles = fs.readdirSync(path.join(ROOT, "public"));
    expect(publicFiles.filter((f) => SLUG_PATTERN.test(f) && !RESERVED_SLUGS.has(f))).toEqual([]);
    for (const prefix of ["assets", "uploads"]) expect(RESERVED_SLUGS.has(prefix)).toBe(true);
  });

  it("holds every path of the site's contract, including the routes other parts add", () => {
    const contract = [
      "admin",
      "submit",
      "suggest-platform",
      "random",
      "partnerships",
      "privacy",
      "terms",
      "platforms",
      "fairness",
      "feeds",
      "my-code",
      "game",
      "sitemap-audit",
      "sitemap.xml",
      "robots.txt",
      "ads.txt",
      "healthz",
      "preferences",
      "events",
      "404",
      "assets",
      "uploads",
      // Added with batch 3: the public freshness data.
      "api",
      "llms.txt",
    ];
    expect(contract.filter((s) => !RESERVED_SLUGS.has(s))).toEqual([]);
  });

  it("an admin cannot give a platform a reserved slug", () => {
    for (const slug of ["platforms", "fairness", "feeds", "my-code", "game", "sitemap-audit"]) {
      const result = platformCreateSchema.safeParse({ name: "X", slug, description: "d", code_pattern: "^[A-Z]+$" });
      expect(result.success, slug).toBe(false);
      if (!result.success) expect(result.error.issues.map((i) => i.message)).toContain("platformForm.errors.slugReserved");
    }
  });
});
