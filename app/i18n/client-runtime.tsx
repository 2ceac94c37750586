/**
 * The browser's translation runtime: the part of react-i18next's API the app's components use
 * (`useTranslation`, `t`, `i18n.language`, `exists`, `changeLanguage`, `loadNamespaces`,
 * `hasLoadedNamespace`), about 1 KB instead of i18next + react-i18next (14 KB gz).
 * The client build resolves `react-i18next` to this file (vite.config.ts); the server keeps
 * i18next, so pages are rendered by it and hydrated by this with the same texts. What it follows
 * from i18next's defaults, and must keep following: `ns:key`, nested keys with `.`, `{{name}}`
 * without escaping (a value not given stays as it is), plurals by `Intl.PluralRules` with `_one`,
 * `_other`… (`_other` when the language's form is missing, the bare key when no plural is given),
 * `defaultValue`, the fallback language's text when it is loaded, and the key itself when nothing
 * is found (the four languages have the same keys: tests/unit/i18n-keys.test.ts).
 */
import { useSyncExternalStore } from "react";
import { i18nBaseOptions } from "./config";
import { readLocales } from "./locale-files";

type Tree = { [key: string]: string | Tree };
type Options = Record<string, unknown> & { ns?: string; count?: number; defaultValue?: string };
export type TFunction = (key: string, options?: Options) => string;

// Each language/namespace file is its own small, hashed file, fetched only when needed (./locale-files).
const store = new Map<string, Tree>(); // `${language}/${namespace}`
const pending = new Map<string, Promise<void>>();
const listeners = new Set<() => void>();
const pluralRules = new Map<string, Intl.PluralRules>();
const defaultNs: string = i18nBaseOptions.defaultNS;
/** Counts language changes: every translated part renders again after one. */
let languageVersion = 0;

/** One `t` per namespace until the next change, so effects that depend on `t` do not re-run on every render. */
const bound = new Map<string, TFunction>();

/**
 * Tells the translated parts that texts changed. Each part renders again only if what it reads
 * changed: the language, or one of its own namespaces arriving (its snapshot, below). A namespace
 * loaded for one part (the game's texts, on the first touch) leaves the rest of the page alone.
 */
function notify() {
  bound.clear();
  for (const listener of listeners) listener();
}

/** What a part using these namespaces shows depends on: the language and which of them are loaded. */
export function snapshot(namespaces: readonly string[]): string {
  let loaded = "";
  for (const namespace of namespaces) loaded += store.has(`${i18n.language}/${namespace}`) ? "1" : "0";
  return `${languageVersion}:${loaded}`;
}

/** Reads the namespaces not yet read or on their way, all in one request (decision 272). */
function load(language: string, namespaces: readonly string[]): Promise<void> {
  const wanted = namespaces.filter((namespace) => {
    const id = `${language}/${namespace}`;
    return !store.has(id) && !pending.has(id);
  });
  if (wanted.length > 0) {
    const promise = readLocales(language, wanted).then(
      (trees) => {
        for (const namespace of wanted) store.set(`${language}/${namespace}`, trees[namespace] ?? {});
      },
      () => {
        for (const namespace of wanted) store.set(`${language}/${namespace}`, {});
      },
    );
    for (const namespace of wanted) pending.set(`${language}/${namespace}`, promise);
  }
  return Promise.all(namespaces.map((namespace) => pending.get(`${language}/${namespace}`))).then(() => undefined);
}

function lookup(language: string, namespace: string, key: string): string | undefined {
  let node: string | Tree | undefined = store.get(`${language}/${namespace}`);
  for (const part of key.split(".")) {
    if (node === undefined || typeof node === "string") return undefined;
    node = node[part];
  }
  return typeof node === "string" ? node : undefined;
}

function interpolate(text: string, options: Options | undefined): string {
  if (!options || !text.includes("{{")) return text;
  return text.replace(/\{\{\s*([^}\s]+)\s*\}\}/g, (match, name: string) =>
    Object.prototype.hasOwnProperty.call(options, name) ? String(options[name]) : match,
  );
}

function find(language: string, namespace: string, key: string, count: unknown): string | undefined {
  if (typeof count === "number") {
    let rules = pluralRules.get(language);
    if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
    const plural =
      (count === 0 ? lookup(language, namespace, `${key}_zero`) : undefined) ??
      lookup(language, namespace, `${key}_${rules.select(count)}`) ??
      lookup(language, namespace, `${key}_other`);
    if (plural !== undefined) return plural;
  }
  return lookup(language, namespace, key);
}

export const i18n = {
  language: i18nBaseOptions.fallbackLng as string,
  namespaces: new Set<string>(),

  async init(options: { lng: string; ns: readonly string[] }) {
    i18n.language = options.lng;
    await i18n.loadNamespaces(options.ns);
    return i18n;
  },

  t(key: string, options?: Options): string {
    let namespace = options?.ns ?? defaultNs;
    let path = key;
    const colon = key.indexOf(":");
    if (colon > 0) {
      namespace = key.slice(0, colon);
      path = key.slice(colon + 1);
    }
    const text =
      find(i18n.language, namespace, path, options?.count) ??
      (i18n.language === i18nBaseOptions.fallbackLng
        ? undefined
        : find(i18nBaseOptions.fallbackLng, namespace, path, options?.count));
    return interpolate(text ?? options?.defaultValue ?? path, options);
  },

  exists(key: string, options?: { ns?: string }): boolean {
    const colon = key.indexOf(":");
    const namespace = colon > 0 ? key.slice(0, colon) : (options?.ns ?? defaultNs);
    return lookup(i18n.language, namespace, colon > 0 ? key.slice(colon + 1) : key) !== undefined;
  },

  hasLoadedNamespace(namespace: string): boolean {
    return store.has(`${i18n.language}/${namespace}`);
  },

  async loadNamespaces(namespaces: string | readonly string[]) {
    const list = typeof namespaces === "string" ? [namespaces] : namespaces;
    for (const namespace of list) i18n.namespaces.add(namespace);
    const missing = list.filter((namespace) => !i18n.hasLoadedNamespace(namespace));
    if (missing.length === 0) return;
    await load(i18n.language, missing);
    notify();
  },

  /** Loads the namespaces already in use in the new language, then re-renders every translated part. */
  async changeLanguage(language: string) {
    await load(language, [...i18n.namespaces]);
    i18n.language = language;
    languageVersion++;
    notify();
  },
};

export function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** react-i18next's hook: `t` bound to the first namespace; suspends on missing ones when asked to. */
export function useTranslation(ns?: string | readonly string[], options?: { useSuspense?: boolean }) {
  const namespaces = ns === undefined ? [defaultNs] : typeof ns === "string" ? [ns] : ns;
  const current = () => snapshot(namespaces);
  useSyncExternalStore(subscribe, current, current);
  const missing = namespaces.filter((namespace) => !i18n.hasLoadedNamespace(namespace));
  if (missing.length > 0) {
    // Like react-i18next: suspend when asked to, otherwise render the keys and again once loaded.
    const loading = i18n.loadNamespaces(missing);
    if (options?.useSuspense) throw loading;
  }
  const first = namespaces[0] ?? defaultNs;
  let t = bound.get(first);
  if (!t) bound.set(first, (t = (key, values) => i18n.t(key, { ns: first, ...values })));
  return { t, i18n };
}
