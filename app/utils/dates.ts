import { SITE_TIME_ZONE } from "~db/time";

/**
 * Dates in Paris time, day first, in the reader's language and a form they cannot misread: 03/04/2026
 * in French and Spanish, 03.04.2026 in German, and 3 Apr 2026 in English, whose readers do not agree
 * on which of two numbers is the month (decisions 303, 340).
 */

const LOCALES: Record<string, string> = { fr: "fr-FR", en: "en-GB", de: "de-DE", es: "es-ES" };

// Made on first use, not when the module loads: the footer imports this module on every page (for
// its years) and a formatter with a time zone costs a cheap phone tens of milliseconds to build
// (the zone's and the locale's data), though a visitor page rarely formats a date (decision 252).
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

function formatIn(
  cache: Map<string, Intl.DateTimeFormat>,
  language: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const locale = LOCALES[language] ?? LOCALES.fr!;
  let format = cache.get(locale);
  if (!format) {
    const day = locale === LOCALES.en ? ENGLISH_DAY : DAY;
    cache.set(locale, (format = new Intl.DateTimeFormat(locale, { timeZone: SITE_TIME_ZONE, ...day, ...options })));
  }
  return format;
}

const DAY = { day: "2-digit", month: "2-digit", year: "numeric" } as const;
const ENGLISH_DAY = { day: "numeric", month: "short", year: "numeric" } as const;

/** The day in Paris time (dd/MM/yyyy in French); `language` is the reader's (fr, en, de, es), never assumed. */
export function formatDate(iso: string | null | undefined, language: string): string {
  if (!iso) return "";
  return formatIn(dateFormats, language, {}).format(new Date(iso));
}

/** The day and the time in Paris time (dd/MM/yyyy HH:mm in French). */
export function formatDateTime(iso: string | null | undefined, language: string): string {
  if (!iso) return "";
  return formatIn(dateTimeFormats, language, { hour: "2-digit", minute: "2-digit" }).format(new Date(iso));
}

const FIRST_YEAR = 2025;

/** The footer's years: the site opened in 2025, so '2025' that year, then '2025–{this year}'. */
export function copyrightYears(now: Date): string {
  const year = now.getFullYear();
  return year > FIRST_YEAR ? `${FIRST_YEAR}–${year}` : String(FIRST_YEAR);
}
