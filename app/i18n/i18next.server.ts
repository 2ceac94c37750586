import { createInstance, type i18n as I18n } from "i18next";
import { DEFAULT_LANGUAGE, i18nBaseOptions, isLanguage, type Language } from "./config";
import { askedLanguage, browserLanguage, cookieLanguage, isPageRead, languageOf, type LanguageSignals } from "./language-rule";
import { resources } from "./resources.server";

const strict = process.env.I18N_STRICT === "1";

const missingKeys = {
  // In tests a missing key must fail loudly instead of showing the key to a visitor.
  saveMissing: strict,
  missingKeyHandler: strict
    ? (_lngs: readonly string[], ns: string, key: string) => {
        throw new Error(`Missing translation key ${ns}:${key}`);
      }
    : (false as const),
};

/** What the language rule (language-rule.ts) reads of a request. */
function signalsOf(request: Request): LanguageSignals {
  const { headers } = request;
  const query = request.url.indexOf("?");
  return {
    method: request.method,
    search: query < 0 ? "" : request.url.slice(query),
    cookie: headers.get("Cookie"),
    acceptLanguage: headers.get("Accept-Language"),
    contentType: headers.get("Content-Type"),
  };
}

// The language is asked for several times per page (root loader, page loader, their `t`, the
// render): it is worked out once per request.
const languageOfRequest = new WeakMap<Request, Promise<Language>>();

/**
 * The language of the answer to `request` (language-rule.ts): a page read is `?lng=` or French; a
 * form's answer `?lng=`, the `language` cookie, Accept-Language, then French.
 */
export function getLanguage(request: Request): Promise<Language> {
  let language = languageOfRequest.get(request);
  if (!language) {
    language = Promise.resolve(languageOf(signalsOf(request)));
    languageOfRequest.set(request, language);
  }
  return language;
}

/**
 * Where a read of a bare (French) URL goes for a visitor who chose another language (the cookie):
 * the same URL with `?lng=`. Null when the page is served as asked.
 */
export function chosenLanguageUrl(request: Request): string | null {
  const signals = signalsOf(request);
  if (!isPageRead(signals) || askedLanguage(signals.search)) return null;
  const chosen = cookieLanguage(signals.cookie);
  if (!chosen || chosen === DEFAULT_LANGUAGE) return null;
  const url = new URL(request.url);
  url.searchParams.set("lng", chosen);
  return `${url.pathname}${url.search}`;
}

/**
 * The language a French page offers a link to (in that language's words): the browser's, when it
 * is another of ours and the visitor has chosen none yet.
 */
export async function offeredLanguage(request: Request): Promise<{ language: Language; label: string } | null> {
  const signals = signalsOf(request);
  if (!isPageRead(signals) || askedLanguage(signals.search) || cookieLanguage(signals.cookie)) return null;
  const language = browserLanguage(signals.acceptLanguage);
  if (!isLanguage(language) || language === DEFAULT_LANGUAGE) return null;
  return { language, label: shared.getFixedT(language, "common")("languageOffer.link") };
}

/** A `t` for loaders and actions (messages, meta, emails) in the visitor's language. */
export async function getT(request: Request, ns: string | readonly [string, ...string[]] = "common") {
  const language = await getLanguage(request);
  // One namespace: the render instance's shared `t` (the same texts, remembered).
  return typeof ns === "string" ? i18nForRender(language).getFixedT(null, ns) : shared.getFixedT(language, ns);
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
type Translate = (key: unknown, options?: Record<string, unknown>) => unknown;

/**
 * A `translate` that remembers each string it gives, under the id `idOf` makes of the call (none:
 * the call is not remembered).
 */
function remembering(
  translate: Translate,
  idOf: (key: unknown, options?: Record<string, unknown>) => string | undefined,
): Translate {
  const memo = new Map<string, string>();
  return (key, options) => {
    const id = idOf(key, options);
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
}

function memoizeTranslations(instance: I18n): I18n {
  const t = remembering(instance.t.bind(instance) as Translate, (key, options) => memoId(instance.language, key, options));
  instance.t = t as unknown as I18n["t"];
  return instance;
}

type FixedT = ReturnType<I18n["getFixedT"]>;

/**
 * react-i18next's `useTranslation` asks for a new fixed `t` on every render, and loaders' `getT` on
 * every request; that `t` builds an options object for each call before i18next's own look-up:
 * with a hundred texts a page, 5 % of a render's allocations. A render instance never changes
 * language, so it hands out one fixed `t` per namespace, and that `t` remembers the text of each
 * key and options it was asked (as `memoizeTranslations`, whose rule `memoId` is: an option that is
 * an object or a function goes the whole way, every time).
 */
function shareFixedTs(instance: I18n): I18n {
  const getFixedT = instance.getFixedT.bind(instance) as (lng: unknown, ns?: unknown, keyPrefix?: unknown) => FixedT;
  const shared = new Map<string, FixedT>();
  instance.getFixedT = ((lng: unknown, ns?: unknown, keyPrefix?: unknown) => {
    if ((lng != null && lng !== instance.language) || (ns !== undefined && typeof ns !== "string") || keyPrefix != null)
      return getFixedT(lng, ns, keyPrefix);
    const id = ns ?? "";
    let t = shared.get(id);
    if (!t) {
      const fixed = remembering(getFixedT(null, ns) as unknown as Translate, (key, options) =>
        options === undefined && typeof key === "string" ? key : memoId("", key, options),
      );
      t = Object.assign(fixed, { lng: instance.language, ns, keyPrefix: undefined }) as unknown as FixedT;
      shared.set(id, t);
    }
    return t;
  }) as I18n["getFixedT"];
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
    instance = shareFixedTs(memoizeTranslations(shared.cloneInstance({ lng, initImmediate: false })));
    renderInstances.set(lng, instance);
  }
  return instance;
}
