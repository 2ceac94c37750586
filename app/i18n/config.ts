/** Languages and namespaces. One JSON file per language and namespace in app/locales. */
export const SUPPORTED_LANGUAGES = ["fr", "en", "de", "es"] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "fr";
/** The cookie that remembers a chosen language (its attributes: app/utils/cookies.server.ts). */
export const LANGUAGE_COOKIE = "language";

/**
 * Namespaces of the parts every page shows (header, footer, toasts). A page's own namespaces come
 * from its routes' `handle.i18n`; the browser loads only these two sets before hydrating. The
 * consent banner and the ad unit (`consent`) load theirs with their code, on the pages that show them.
 */
export const LAYOUT_NAMESPACES = ["common", "trust"] as const;

export const LANGUAGE_NAMES: Record<Language, string> = {
  fr: "Français",
  en: "English",
  de: "Deutsch",
  es: "Español",
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

export const i18nBaseOptions = {
  supportedLngs: [...SUPPORTED_LANGUAGES],
  fallbackLng: DEFAULT_LANGUAGE,
  defaultNS: "common",
  interpolation: { escapeValue: false },
} as const;
