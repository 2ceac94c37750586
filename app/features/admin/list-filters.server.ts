import { startOfDayIso } from "~db/time";
import { getT } from "~/i18n/i18next.server";
import { failure } from "~/utils/responses.server";

/**
 * The filters the admin lists read from their URL (plain GET forms). An unknown choice means "all"
 * (no form of ours sends one); a day that is not a date answers 400 with the message.
 */
export function choiceOf<T extends string>(url: URL, name: string, choices: readonly T[]): T | null {
  const value = url.searchParams.get(name);
  return value && (choices as readonly string[]).includes(value) ? (value as T) : null;
}

/** `?date=YYYY-MM-DD`: that Paris day as an ISO range [from, to), or null when not asked. */
export async function dayRangeOf(request: Request, name = "date"): Promise<{ day: string; from: string; to: string } | null> {
  const day = new URL(request.url).searchParams.get(name)?.trim();
  if (!day) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const noon = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12) : NaN;
  if (!match || Number.isNaN(noon) || new Date(noon).toISOString().slice(0, 10) !== day) {
    const t = await getT(request, "lists");
    throw failure(400, t("filters.invalidDate"));
  }
  return { day, from: startOfDayIso(new Date(noon)), to: startOfDayIso(new Date(noon + 24 * 3_600_000)) };
}
