/** The site's day: counts "today" and per-day figures start at midnight in Paris. */
export const SITE_TIME_ZONE = "Europe/Paris";

// Building a formatter costs far more than using one (a per-day figure over 90 days needs 180).
const zoneFormats = new Map<string, Intl.DateTimeFormat>();
function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    zoneFormats.set(timeZone, format);
  }
  return format;
}

/** Offset (ms) of a time zone from UTC at a given instant. */
function zoneOffsetMs(instant: Date, timeZone: string): number {
  const parts = zoneFormat(timeZone).formatToParts(instant);
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

const dayKeyFormat = new Intl.DateTimeFormat("en-CA", {
  timeZone: SITE_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** The Paris date (`YYYY-MM-DD`) of an instant: the key of the daily figures. */
export function siteDayKey(instant: string | Date): string {
  return dayKeyFormat.format(typeof instant === "string" ? new Date(instant) : instant);
}

/** The instant the Paris day after the one starting at `dayStart` begins (30 h later is always the next day). */
export function nextDayStartIso(dayStart: string): string {
  return startOfDayIso(new Date(Date.parse(dayStart) + 30 * 3_600_000));
}

/**
 * The Paris day holding the last instant asked, and the lists of day starts built in it: a page that
 * shows figures over 30 or 90 days would otherwise format 60-180 instants on every render (10 % of
 * an uncached platform page's CPU). Valid while the instant stays inside that day.
 */
let today: { start: number; end: number; lists: Map<number, readonly string[]> } | undefined;

/** Start instants (ISO) of the last `days` Paris days, oldest first; the last is the one holding `now`. */
export function parisDayStarts(days: number, now = new Date()): string[] {
  const at = now.getTime();
  if (!today || at < today.start || at >= today.end) {
    const start = startOfDayIso(now);
    today = { start: Date.parse(start), end: Date.parse(nextDayStartIso(start)), lists: new Map() };
  }
  let list = today.lists.get(days);
  if (!list) {
    const starts = [new Date(today.start).toISOString()];
    while (starts.length < days) {
      // An hour before a midnight is always in the previous day, DST or not.
      starts.unshift(startOfDayIso(new Date(Date.parse(starts[0]!) - 3_600_000)));
    }
    list = Object.freeze(starts);
    // A handful of lengths are asked (7, 30, 90…); a stranger cannot choose one, but stay bounded.
    if (today.lists.size >= 16) today.lists.clear();
    today.lists.set(days, list);
  }
  return [...list];
}
