import { SITE_TIME_ZONE } from "~db/time";

/** Dates as the admin reads them: Europe/Paris, dd/MM/yyyy, weeks starting Monday. */

const dateFormat = new Intl.DateTimeFormat("fr-FR", {
  timeZone: SITE_TIME_ZONE,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
});
const dateTimeFormat = new Intl.DateTimeFormat("fr-FR", {
  timeZone: SITE_TIME_ZONE,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

/** dd/MM/yyyy in Paris time. */
export function formatDate(iso: string | null | undefined): string {
  return iso ? dateFormat.format(new Date(iso)) : "";
}

/** dd/MM/yyyy HH:mm in Paris time. */
export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dateTimeFormat.format(new Date(iso)) : "";
}

const FIRST_YEAR = 2025;

/** The footer's years: the site opened in 2025, so '2025' that year, then '2025–{this year}'. */
export function copyrightYears(now: Date): string {
  const year = now.getFullYear();
  return year > FIRST_YEAR ? `${FIRST_YEAR}–${year}` : String(FIRST_YEAR);
}
