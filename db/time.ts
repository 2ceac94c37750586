/** The site's day: counts "today" and per-day figures start at midnight in Paris. */
export const SITE_TIME_ZONE = "Europe/Paris";

/** Offset (ms) of a time zone from UTC at a given instant. */
function zoneOffsetMs(instant: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The instant today began in Paris, as an ISO string comparable with stored timestamps. */
export function startOfDayIso(now = new Date(), timeZone = SITE_TIME_ZONE): string {
  const offset = zoneOffsetMs(now, timeZone);
  const local = new Date(now.getTime() + offset);
  const localMidnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  // The offset at midnight may differ from now's (DST change during the day).
  const guess = localMidnight - offset;
  return new Date(localMidnight - zoneOffsetMs(new Date(guess), timeZone)).toISOString();
}
