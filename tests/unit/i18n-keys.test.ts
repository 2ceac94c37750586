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

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/**
 * Namespaces merged from parallel work whose counts still use `{{count}}` without plural forms;
 * they are to be converted (their components pass `count`), then removed from this list.
 */

/** A plural key stands for its base key; each language needs the forms its own plural rules use. */
function baseKeys(map: Map<string, unknown>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of map) {
    const base = key.replace(PLURAL_SUFFIX, "");
    out.set(base, base === key ? value : `${out.get(base) ?? ""} ${String(value)}`);
  }
  return out;
}

describe("translations", () => {
  it("has namespaces", () => expect(namespaces.length).toBeGreaterThan(0));

  for (const ns of namespaces) {
    it(`${ns}: every key exists, non-empty, in fr, en, de and es, with the same placeholders`, () => {
      const raw = new Map(
        SUPPORTED_LANGUAGES.map((lng) => [lng, fs.existsSync(path.join(LOCALES, lng, `${ns}.json`)) ? load(lng, ns) : new Map()]),
      );
      const all = new Map([...raw].map(([lng, map]) => [lng, baseKeys(map)]));
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
      // Plurals: every form the language's rules need (fr and es: one, many, other; en and de: one, other).
      for (const [lng, map] of raw) {
        const categories = new Intl.PluralRules(lng).resolvedOptions().pluralCategories;
        const bases = new Set([...map.keys()].filter((k) => PLURAL_SUFFIX.test(k)).map((k) => k.replace(PLURAL_SUFFIX, "")));
        for (const base of bases)
          for (const category of categories)
            if (!map.has(`${base}_${category}`)) problems.push(`${lng}/${ns}.json: missing plural "${base}_${category}"`);
      }
      expect(problems).toEqual([]);
    });
  }

  // A count after a label and a colon ("URLs listed: {{count}}") reads the same for 1 and 12: no plural needed.
  it("a count shown next to a word uses plural forms: no '{{count}}' in a key without plural suffix", () => {
    const problems: string[] = [];
    for (const lng of SUPPORTED_LANGUAGES)
      for (const ns of namespaces)
        for (const [key, value] of load(lng, ns))
          if (
            typeof value === "string" &&
            value.replace(/:\s?\{\{count\}\}/g, "").includes("{{count}}") &&
            !PLURAL_SUFFIX.test(key) &&
            !/\{\{index\}\}/.test(value)
          )
            problems.push(`${lng}/${ns}:${key}`);
    expect(problems).toEqual([]);
  });

  it("no 'word(s)' shortcuts: counts use plural forms", () => {
    const problems: string[] = [];
    for (const lng of SUPPORTED_LANGUAGES)
      for (const ns of namespaces)
        for (const [key, value] of load(lng, ns))
          if (typeof value === "string" && /\p{L}\((s|n|en|es)\)/u.test(value.replace(/http\(s\)/g, "")))
            problems.push(`${lng}/${ns}:${key}: ${value}`);
    expect(problems).toEqual([]);
  });

  it("French typography: a non-breaking space before : ? ! ; so they never wrap alone", () => {
    const problems: string[] = [];
    for (const ns of namespaces)
      for (const [key, value] of load("fr", ns))
        if (typeof value === "string" && / [:?!;]/.test(value)) problems.push(`fr/${ns}:${key}: ${value}`);
    expect(problems).toEqual([]);
  });
});
