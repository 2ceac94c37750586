import { createInstance, type i18n as I18n } from "i18next";
import { RemixI18Next } from "remix-i18next/server";
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, SUPPORTED_LANGUAGES, i18nBaseOptions, isLanguage, type Language } from "./config";
import { resources } from "./resources.server";

const strict = process.env.I18N_STRICT === "1";

/**
 * The language the `language` cookie names, or null. Read here, below app/utils, so that language
 * detection depends on nothing above it (app/utils builds its translated answers on this module).
 */
function chosenLanguage(request: Request): Language | null {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  const value = new URLSearchParams(header.replace(/;\s*/g, "&")).get(LANGUAGE_COOKIE);
  return isLanguage(value) ? value : null;
}

const missingKeys = {
  // In tests a missing key must fail loudly instead of showing the key to a visitor.
  saveMissing: strict,
  missingKeyHandler: strict
    ? (_lngs: readonly string[], ns: string, key: string) => {
        throw new Error(`Missing translation key ${ns}:${key}`);
      }
    : (false as const),
};

/**
 * Detection order for what is not a page read (a form's answer, a JSON endpoint's message): `?lng=`,
 * cookie `language`, Accept-Language, then French. A GET or HEAD is one URL, one language
 * (decision 220): `?lng=` or French; the cookie sends a bare URL on to its language's URL
 * (`chosenLanguageUrl`), Accept-Language only offers it (`offeredLanguage`).
 */
const i18next = new RemixI18Next({
  detection: {
    supportedLanguages: [...SUPPORTED_LANGUAGES],
    fallbackLanguage: DEFAULT_LANGUAGE,
    searchParamKey: "lng",
    order: ["searchParams", "custom", "header"],
    async findLocale(request) {
      return chosenLanguage(request);
    },
  },
  i18next: { ...i18nBaseOptions, resources, ...missingKeys },
});

// The language is asked for several times per page (root loader, page loader, their `t`, the
// render): it is worked out once per request.
const languageOf = new WeakMap<Request, Promise<Language>>();

export function getLanguage(request: Request): Promise<Language> {
  let language = languageOf.get(request);
  if (!language) {
    language = isRead(request)
      ? Promise.resolve(languageAsked(request) ?? DEFAULT_LANGUAGE)
      : i18next.getLocale(request).then((locale) => (isLanguage(locale) ? locale : DEFAULT_LANGUAGE));
    languageOf.set(request, language);
  }
  return language;
}

/**
 * A page read. Remix runs the loaders after a form's action with a GET that keeps the form's
 * headers: its Content-Type tells it apart, so the page answering a form speaks the form's language.
 */
const isRead = (request: Request) =>
  (request.method === "GET" || request.method === "HEAD") && !request.headers.has("Content-Type");

/** The `?lng=` of the URL, when it names a language. */
function languageAsked(request: Request): Language | null {
  const asked = new URL(request.url).searchParams.get("lng");
  return isLanguage(asked) ? asked : null;
}

/**
 * Where a read of a bare (French) URL goes for a visitor who chose another language (the cookie):
 * the same URL with `?lng=`. Null when the page is served as asked.
 */
export function chosenLanguageUrl(request: Request): string | null {
  if (!isRead(request) || languageAsked(request)) return null;
  const chosen = chosenLanguage(request);
  if (!isLanguage(chosen) || chosen === DEFAULT_LANGUAGE) return null;
  const url = new URL(request.url);
  url.searchParams.set("lng", chosen);
  return `${url.pathname}${url.search}`;
}

const fromBrowser = new RemixI18Next({
  detection: {
    supportedLanguages: [...SUPPORTED_LANGUAGES],
    fallbackLanguage: DEFAULT_LANGUAGE,
    order: ["header"],
  },
});

/**
 * The language a French page offers a link to (in that language's words): the browser's, when it
 * is another of ours and the visitor has chosen none yet.
 */
export async function offeredLanguage(request: Request): Promise<{ language: Language; label: string } | null> {
  if (!isRead(request) || languageAsked(request) || isLanguage(chosenLanguage(request))) return null;
  if (!request.headers.get("Accept-Language")) return null;
  const language = await fromBrowser.getLocale(request);
  if (!isLanguage(language) || language === DEFAULT_LANGUAGE) return null;
  return { language, label: shared.getFixedT(language, "common")("languageOffer.link") };
}

/** A `t` for loaders and actions (messages, meta, emails) in the visitor's language. */
export async function getT(request: Request, ns: string | readonly [string, ...string[]] = "common") {
  return shared.getFixedT(await getLanguage(request), ns);
}

const MEMO_SIZE = 5_000;

/**
 * What a call's text depends on besides the instance: the key and its options, when every option is
 * a string, number, boolean or null (react-i18next's fixed `t` passes `lngs: null`); undefined when
 * an option is an object or a function (a formatter's date, `returnObjects`' result is not kept).
 */
function memoId(language: string, key: unknown, options?: Record<string, unknown>): string | undefined {
  if (typeof key !== "string") return undefined;
  let id = `${language}\0${key}`;
  if (options) {
    for (const name in options) {
      const value = options[name];
      if (value === undefined) continue;
      if (value !== null && typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean")
        return undefined;
      id += `\0${name}\0${typeof value}\0${String(value)}`;
    }
  }
  return id;
}

/**
 * Remembers each text once it has been translated for a key and its options: translations never
 * change while the server runs, and a page asks for the same hundred keys on every render, each
 * through i18next's whole look-up (key parsing, namespaces, fallbacks, interpolation, plurals). At
 * most MEMO_SIZE texts per instance; past that the memory starts again (names in values change).
 */
function memoizeTranslations(instance: I18n): I18n {
  const translate = instance.t.bind(instance) as (key: unknown, options?: Record<string, unknown>) => unknown;
  const memo = new Map<string, string>();
  const t = (key: unknown, options?: Record<string, unknown>) => {
    const id = memoId(instance.language, key, options);
    if (id === undefined) return translate(key, options);
    const known = memo.get(id);
    if (known !== undefined) return known;
    const text = translate(key, options);
    if (typeof text === "string") {
      if (memo.size >= MEMO_SIZE) memo.clear();
      memo.set(id, text);
    }
    return text;
  };
  instance.t = t as unknown as I18n["t"];
  return instance;
}

// One i18next for the whole server, initialised once (synchronously) with every translation.
// remix-i18next's getFixedT builds and initialises a new instance on each call, several times per
// page: that was a fifth of a page's server time. A request only picks a language.
const shared: I18n = createInstance();
void shared.init({ ...i18nBaseOptions, resources, ...missingKeys, lng: DEFAULT_LANGUAGE, initImmediate: false });
memoizeTranslations(shared);

// One i18next per language for rendering, made on first use: they share the translations, and
// nothing changes their language on the server (only the browser's effects do).
const renderInstances = new Map<Language, I18n>();

/** The i18next to render a request in `lng`; it shares the translations already loaded. */
export function i18nForRender(lng: Language): I18n {
  let instance = renderInstances.get(lng);
  if (!instance) {
    instance = memoizeTranslations(shared.cloneInstance({ lng, initImmediate: false }));
    renderInstances.set(lng, instance);
  }
  return instance;
}
