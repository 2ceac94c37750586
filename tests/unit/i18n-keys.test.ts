import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SUPPORTED_LANGUAGES } from "~/i18n/config";
import { ROOT } from "../support/paths";

const LOCALES = path.join(ROOT, "app", "locales");

function flatten(value: unknown, prefix = ""): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (value && typeof value === "object" && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) for (const [fk, fv] of flatten(v, prefix ? `${prefix}.${k}` : k)) out.set(fk, fv);
  } else {
    out.set(prefix, value);
  }
  return out;
}

function load(lng: string, ns: string) {
  return flatten(JSON.parse(fs.readFileSync(path.join(LOCALES, lng, `${ns}.json`), "utf8")));
}

const namespaces = [...new Set(SUPPORTED_LANGUAGES.flatMap((lng) => fs.readdirSync(path.join(LOCALES, lng))))]
  .filter((f) => f.endsWith(".json"))
  .map((f) => f.replace(/\.json$/, ""));

describe("translations", () => {
  it("has namespaces", () => expect(namespaces.length).toBeGreaterThan(0));

  for (const ns of namespaces) {
    it(`${ns}: every key exists, non-empty, in fr, en, de and es, with the same placeholders`, () => {
      const all = new Map(
        SUPPORTED_LANGUAGES.map((lng) => [lng, fs.existsSync(path.join(LOCALES, lng, `${ns}.json`)) ? load(lng, ns) : new Map()]),
      );
      const keys = new Set([...all.values()].flatMap((m) => [...m.keys()]));
      const problems: string[] = [];
      for (const key of keys) {
        const placeholders = new Set<string>();
        for (const lng of SUPPORTED_LANGUAGES) {
          const value = all.get(lng)!.get(key);
          if (typeof value !== "string" || !value.trim()) problems.push(`${lng}/${ns}.json: missing "${key}"`);
          else for (const m of value.matchAll(/\{\{(\w+)\}\}/g)) placeholders.add(`${lng}:${m[1]}`);
        }
        const names = [...placeholders].map((p) => p.split(":")[1]);
        for (const name of new Set(names)) {
          const langs = [...placeholders].filter((p) => p.endsWith(`:${name}`)).length;
          if (langs !== SUPPORTED_LANGUAGES.length) problems.push(`${ns}:${key}: {{${name}}} not in every language`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
