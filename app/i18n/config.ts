/** Languages and namespaces. One JSON file per language and namespace in app/locales. */
export const SUPPORTED_LANGUAGES = ["fr", "en", "de", "es"] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "fr";

/** Namespaces every public page may use; loaded once per language on the client. */
export const PUBLIC_NAMESPACES = [
  "common",
  "home",
  "platform",
  "platforms",
  "submit",
  "suggest",
  "partnerships",
  "legal",
  "consent",
  "trust",
] as const;

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
