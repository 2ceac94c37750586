import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, SUPPORTED_LANGUAGES, isLanguage, type Language } from "./config";

/**
 * The one rule that picks an answer's language, from the few things of a request it reads. Pure and
 * synchronous: the app's pages and messages use it (i18next.server.ts `getLanguage`), and so do the
 * refusals the server answers before Remix, through its hooks (`refusalText`), while it is
 * overloaded: a few string operations, no Request object, no i18next.
 *
 * - A page read (GET or HEAD without a body) is one URL, one language (decision 220): `?lng=`, or French.
 * - Anything else (a form's answer, a JSON endpoint's message): `?lng=`, then the `language` cookie,
 *   then the browser's preferred language among ours (Accept-Language, by quality), then French.
 */
export interface LanguageSignals {
  method: string;
  /** The URL's query (`?lng=en&…`), or "". */
  search: string;
  cookie?: string | null;
  acceptLanguage?: string | null;
  contentType?: string | null;
}

export function languageOf(request: LanguageSignals): Language {
  const asked = askedLanguage(request.search);
  if (asked) return asked;
  if (isPageRead(request)) return DEFAULT_LANGUAGE;
  return cookieLanguage(request.cookie) ?? browserLanguage(request.acceptLanguage) ?? DEFAULT_LANGUAGE;
}

/**
 * A page read. Remix runs the loaders after a form's action with a GET that keeps the form's
 * headers: its Content-Type tells it apart, so the page answering a form speaks the form's language.
 */
export function isPageRead({ method, contentType }: Pick<LanguageSignals, "method" | "contentType">): boolean {
  return (method === "GET" || method === "HEAD") && !contentType;
}

/** The `?lng=` of a query, when it names a language. */
export function askedLanguage(search: string): Language | null {
  if (!search.includes("lng=")) return null;
  const asked = new URLSearchParams(search).get("lng");
  return isLanguage(asked) ? asked : null;
}

/** The language the `language` cookie names, or null. */
export function cookieLanguage(cookie: string | null | undefined): Language | null {
  if (!cookie) return null;
  const value = new URLSearchParams(cookie.replace(/;\s*/g, "&")).get(LANGUAGE_COOKIE);
  return isLanguage(value) ? value : null;
}

/** The first of our languages in the browser's preferences (`en-US,en;q=0.9,fr;q=0.8`), by quality; null when none. */
export function browserLanguage(acceptLanguage: string | null | undefined): Language | null {
  if (!acceptLanguage) return null;
  let best: Language | null = null;
  let bestQuality = 0;
  // A header is a few tags; a longer one (a stranger's) is read no further than its first 20.
  for (const part of acceptLanguage.split(",", 20)) {
    const [tag = "", ...params] = part.split(";");
    const primary = tag.trim().split("-")[0]!.toLowerCase();
    if (!(SUPPORTED_LANGUAGES as readonly string[]).includes(primary)) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const quality = q === undefined ? 1 : Number(q);
    // Equal qualities keep the header's order: the first one listed wins.
    if (Number.isFinite(quality) && quality > bestQuality) {
      best = primary as Language;
      bestQuality = quality;
    }
  }
  return best;
}
