import { describe, expect, it } from "vitest";
import { SUPPORTED_LANGUAGES } from "~/i18n/config";
import { browserLanguage, languageOf } from "~/i18n/language-rule";
import { refusalText } from "~/i18n/refusals.server";
import type { RefusalKey } from "~/i18n/refusals.server";

const KEYS: RefusalKey[] = ["notFound", "tooLarge", "overloaded", "badRequest", "serverError"];
const read = { method: "GET", search: "", cookie: undefined, acceptLanguage: undefined, contentType: undefined };
const form = { ...read, method: "POST", contentType: "application/x-www-form-urlencoded" };

describe("the refusals the server answers before Remix, in the app's words (decision 262)", () => {
  it("has every refusal in fr, en, de and es, each its own text", () => {
    for (const key of KEYS) {
      const texts = SUPPORTED_LANGUAGES.map((lng) => refusalText({ ...read, search: `?lng=${lng}` }, key));
      for (const text of texts) expect(text, key).toMatch(/\S/);
      expect(new Set(texts).size, key).toBe(SUPPORTED_LANGUAGES.length);
    }
    expect(refusalText(read, "overloaded")).toBe(
      "Le site reçoit plus de visites qu'il ne peut en servir en ce moment. Réessayez dans quelques secondes.",
    );
    expect(refusalText({ ...read, search: "?lng=en" }, "tooLarge")).toBe("Request refused: what was sent is too large.");
    expect(refusalText({ ...read, search: "?lng=de" }, "notFound")).toBe("Seite nicht gefunden.");
    expect(refusalText({ ...read, search: "?lng=es" }, "badRequest")).toBe("Solicitud no válida.");
  });

  it("speaks the language the app answers in: a page read ?lng= or French; a form ?lng=, the cookie, the browser, French", () => {
    expect(languageOf({ ...read, cookie: "language=de", acceptLanguage: "en" })).toBe("fr");
    expect(languageOf({ ...read, search: "?a=1&lng=es" })).toBe("es");
    expect(languageOf({ ...form, search: "?lng=en", cookie: "language=de" })).toBe("en");
    expect(languageOf({ ...form, cookie: "theme=dark; language=de", acceptLanguage: "es" })).toBe("de");
    expect(languageOf({ ...form, acceptLanguage: "es-ES,es;q=0.9" })).toBe("es");
    expect(languageOf({ ...form, search: "?lng=xx", cookie: "language=xx" })).toBe("fr");
    // The page Remix renders after a form's action is a GET that keeps the form's Content-Type.
    expect(languageOf({ ...read, contentType: "application/x-www-form-urlencoded", cookie: "language=de" })).toBe("de");
  });

  it("reads Accept-Language by quality, keeping the header's order among equals", () => {
    expect(browserLanguage("it, en;q=0.8, de;q=0.9")).toBe("de");
    expect(browserLanguage("en-US,en;q=0.9,fr;q=0.8")).toBe("en");
    expect(browserLanguage("es, en")).toBe("es");
    expect(browserLanguage("de;q=0, it")).toBeNull();
    expect(browserLanguage("*")).toBeNull();
    expect(browserLanguage("")).toBeNull();
  });
});
