/** The offer and claim guide of a platform, as the pages and the public JSON show it. */

export const OFFER_TEXTS = ["offer_referee", "offer_referrer", "offer_conditions", "offer_steps"] as const;
export const OFFER_LANGUAGE_SUFFIXES = ["", "_en", "_de", "_es"] as const;
type OfferText = (typeof OFFER_TEXTS)[number];
type Suffix = (typeof OFFER_LANGUAGE_SUFFIXES)[number];

/** A "checked on" date older than this many days is shown as such. */
export const OFFER_STALE_DAYS = 90;

export type OfferRow = { [K in `${OfferText}${Suffix}`]: string | null } & { offer_checked_on: string | null };

export interface OfferView {
  referee: string | null;
  referrer: string | null;
  conditions: string | null;
  /** One entry per non-empty line. */
  steps: string[];
  /** YYYY-MM-DD. */
  checkedOn: string | null;
  /** The check is older than OFFER_STALE_DAYS. */
  stale: boolean;
}

function suffixOf(language: string): Suffix {
  return language === "en" ? "_en" : language === "de" ? "_de" : language === "es" ? "_es" : "";
}

type RefereeTexts = { [K in `offer_referee${Suffix}`]: string | null };

/**
 * What the offer gives the new customer in `language` (French where that language's is empty), or
 * null: the lead a platform's card, hero and draw result show first.
 */
export function offerLead(row: RefereeTexts | undefined | null, language: string): string | null {
  if (!row) return null;
  return row[`offer_referee${suffixOf(language)}`]?.trim() || row.offer_referee?.trim() || null;
}

/** Each text in `language`, or French where that language's is empty; empty texts are null. */
export function localizeOffer(row: OfferRow | undefined | null, language: string, now = new Date()): OfferView | null {
  if (!row) return null;
  const suffix = suffixOf(language);
  const text = (name: OfferText) => (row[`${name}${suffix}`]?.trim() || row[name]?.trim() || null) as string | null;
  const steps = (text("offer_steps") ?? "")
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter(Boolean);
  const view: OfferView = {
    referee: text("offer_referee"),
    referrer: text("offer_referrer"),
    conditions: text("offer_conditions"),
    steps,
    checkedOn: row.offer_checked_on || null,
    stale: isStale(row.offer_checked_on, now),
  };
  return hasContent(view) ? view : null;
}

function hasContent(view: OfferView): boolean {
  return Boolean(view.referee || view.referrer || view.conditions || view.steps.length || view.checkedOn);
}

function isStale(checkedOn: string | null, now: Date): boolean {
  if (!checkedOn) return false;
  const checked = Date.parse(`${checkedOn}T00:00:00Z`);
  return Number.isFinite(checked) && now.getTime() - checked > OFFER_STALE_DAYS * 24 * 60 * 60 * 1000;
}

/** How long ago, in the largest whole unit a person reads ("3 h ago"), computed once on the server. */
export type Ago = { unit: "minutes" | "hours" | "days"; count: number };

export function agoFrom(iso: string | null, now = new Date()): Ago | null {
  if (!iso) return null;
  const minutes = Math.max(0, Math.floor((now.getTime() - Date.parse(iso)) / 60_000));
  if (minutes < 60) return { unit: "minutes", count: Math.max(1, minutes) };
  if (minutes < 48 * 60) return { unit: "hours", count: Math.floor(minutes / 60) };
  return { unit: "days", count: Math.floor(minutes / (24 * 60)) };
}
