import { SITE_TIME_ZONE } from "~db/time";

/** Dates as the admin reads them: Europe/Paris, dd/MM/yyyy, weeks starting Monday. */

// Made on first use, not when the module loads: the footer imports this module on every page (for
// its years) and a formatter with a time zone costs a cheap phone tens of milliseconds to build
// (the zone's and the locale's data), though a visitor page rarely formats a date (decision 252).
let dateFormat: Intl.DateTimeFormat | undefined;
let dateTimeFormat: Intl.DateTimeFormat | undefined;

/** dd/MM/yyyy in Paris time. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "";
  dateFormat ??= new Intl.DateTimeFormat("fr-FR", {
    timeZone: SITE_TIME_ZONE,
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
  });
  return dateFormat.format(new Date(iso));
}

/** dd/MM/yyyy HH:mm in Paris time. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "";
  dateTimeFormat ??= new Intl.DateTimeFormat("fr-FR", {
    timeZone: SITE_TIME_ZONE,
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
  return dateTimeFormat.format(new Date(iso));
}

const FIRST_YEAR = 2025;

/** The footer's years: the site opened in 2025, so '2025' that year, then '2025–{this year}'. */
export function copyrightYears(now: Date): string {
  const year = now.getFullYear();
  return year > FIRST_YEAR ? `${FIRST_YEAR}–${year}` : String(FIRST_YEAR);
}
