import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SUPPORTED_LANGUAGES } from "~/i18n/config";
import { ROOT } from "../support/paths";

/**
 * One register and one word per core term in each language (docs/glossary.md): a term the glossary
 * replaced fails here, naming the key and what to write instead. Word boundaries are letters of any
 * script (\p{L}), so "chiffres" (figures) is not "chiffrée" (encrypted).
 */
const LOCALES = path.join(ROOT, "app", "locales");

interface Banned {
  term: RegExp;
  use: string;
}

const word = (source: string, flags = "") => new RegExp(`(?<!\\p{L})(?:${source})(?!\\p{L})`, `gu${flags}`);

const BANNED: Record<string, Banned[]> = {
  fr: [
    { term: word("chiffrée?s?"), use: "« empreinte calculée avec une clé secrète » : un hachage à clé n'est pas un chiffrement" },
  ],
  en: [
    { term: word("sharers?", "i"), use: "referrer" },
    { term: word("Refuse"), use: "Decline" },
    { term: word("encrypted", "i"), use: "keyed hash, pseudonym: a keyed hash is not encryption" },
  ],
  de: [
    { term: word("Auslosung\\p{L}*"), use: "Ziehung" },
    {
      term: word("verschlüssel\\p{L}*"),
      use: "mit einem geheimen Schlüssel gebildet: ein Hash mit Schlüssel ist keine Verschlüsselung",
    },
    { term: word("Ihnen"), use: "dir (du everywhere)" },
  ],
  es: [
    { term: word("códigos? de recomendación", "i"), use: "código de referido" },
    { term: word("usted(?:es)?", "i"), use: "tú" },
    {
      term: word(
        "inténtelo|pregúnteme|compruebe|elija|escriba|espere|amplíe|copie|defina|reinícielo|envíe|introduzca|seleccione",
        "i",
      ),
      use: "the tú form (inténtalo, pregúntame, comprueba, elige, escribe…)",
    },
    { term: word("huella cifrada", "i"), use: "huella calculada con una clave secreta" },
    { term: word("quien comparte recibe|recibe quien comparte", "i"), use: "el padrino (the referrer)" },
  ],
};

/** German: "Sie" and "Ihr…" inside a sentence are the formal "you"; at a sentence's start they may be "they". */
const GERMAN_FORMAL = word("Sie|Ihre?[mnrs]?");
const SENTENCE_START = /(?:^|[.!?:;„“"(]\s*)$/u;

function strings(value: unknown, prefix = ""): Array<[string, string]> {
  if (typeof value === "string") return [[prefix, value]];
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => strings(v, prefix ? `${prefix}.${k}` : k));
  }
  return [];
}

function texts(lng: string): Array<[string, string]> {
  return fs
    .readdirSync(path.join(LOCALES, lng))
    .filter((f) => f.endsWith(".json"))
    .flatMap((f) =>
      strings(JSON.parse(fs.readFileSync(path.join(LOCALES, lng, f), "utf8"))).map(([key, text]): [string, string] => [
        `${f.replace(/\.json$/, "")}:${key}`,
        text,
      ]),
    );
}

function offTheGlossary(lng: string, entries: Array<[string, string]>): string[] {
  const found: string[] = [];
  for (const [key, text] of entries) {
    for (const { term, use } of BANNED[lng] ?? []) {
      for (const m of text.matchAll(term)) found.push(`${key}: "${m[0]}" (use ${use})`);
    }
    if (lng === "de") {
      for (const m of text.matchAll(GERMAN_FORMAL)) {
        if (!SENTENCE_START.test(text.slice(0, m.index))) found.push(`${key}: "${m[0]}" (du everywhere)`);
      }
    }
  }
  return found;
}

describe("the glossary (docs/glossary.md)", () => {
  for (const lng of SUPPORTED_LANGUAGES) {
    it(`${lng}: no term the glossary replaced, one register`, () => {
      expect(offTheGlossary(lng, texts(lng))).toEqual([]);
    });
  }

  it("catches what it is there to catch (the check itself can fail)", () => {
    expect(offTheGlossary("de", [["k", "Bitte versuchen Sie es erneut."]])).toHaveLength(1);
    expect(offTheGlossary("de", [["k", "So erhalten Sie Ihre Prämie"]])).toHaveLength(2);
    expect(offTheGlossary("de", [["k", "Starte die Auslosung"]])).toHaveLength(1);
    // "Sie" opening a sentence is "they": left alone.
    expect(offTheGlossary("de", [["k", "Die Codes: Sie kehren zurück. Sie enthält nichts."]])).toEqual([]);
    expect(offTheGlossary("es", [["k", "Inténtelo de nuevo con su código de recomendación"]])).toHaveLength(2);
    expect(offTheGlossary("en", [["k", "The sharer gets; Refuse"]])).toHaveLength(2);
    expect(offTheGlossary("fr", [["k", "une empreinte chiffrée"]])).toHaveLength(1);
    expect(offTheGlossary("fr", [["k", "les chiffres du mois"]])).toEqual([]);
  });
});
