import { afterEach, describe, expect, it, vi } from "vitest";

// The footer imports app/utils/dates on every page for its years: building its Paris-time
// formatters when the module loads cost a cheap phone tens of milliseconds of main thread on every
// page (decision 252). They are built on first use, once.
const Real = Intl.DateTimeFormat;
let built = 0;
class Counting extends Real {
  constructor(...args: ConstructorParameters<typeof Real>) {
    super(...args);
    built++;
  }
}

describe("the date formatters", () => {
  afterEach(() => {
    Intl.DateTimeFormat = Real;
    vi.resetModules();
  });

  it("are not built when the module loads, and built once when first used", async () => {
    vi.resetModules();
    // db/time (the site's zone; the server's day keys) is loaded first: only this module is under test.
    await import("~db/time");
    Intl.DateTimeFormat = Counting as typeof Intl.DateTimeFormat;
    built = 0;
    const dates = await import("~/utils/dates");
    expect(dates.copyrightYears(new Date("2027-06-01T12:00:00Z"))).toBe("2025–2027");
    expect(built).toBe(0);
    expect(dates.formatDate("2026-11-25T23:30:00Z", "fr")).toBe("26/11/2026");
    expect(dates.formatDate("2026-01-02T10:00:00Z", "fr")).toBe("02/01/2026");
    expect(dates.formatDateTime("2026-11-25T23:30:00Z", "fr")).toBe("26/11/2026 00:30");
    expect(dates.formatDate(null, "fr")).toBe("");
    expect(built).toBe(2);
  });

  // Visitor pages write dates in the reader's language (decision 303): day first, Paris time.
  it("write the day in the reader's language, one formatter per language", async () => {
    vi.resetModules();
    await import("~db/time");
    Intl.DateTimeFormat = Counting as typeof Intl.DateTimeFormat;
    built = 0;
    const dates = await import("~/utils/dates");
    const late = "2026-04-03T23:30:00Z"; // already the 4th in Paris
    expect(dates.formatDate(late, "fr")).toBe("04/04/2026");
    // English readers disagree on which number is the month: the month by its name (decision 340).
    expect(dates.formatDate(late, "en")).toBe("4 Apr 2026");
    expect(dates.formatDateTime(late, "en")).toBe("4 Apr 2026, 01:30");
    expect(dates.formatDate(late, "de")).toBe("04.04.2026");
    expect(dates.formatDate(late, "es")).toBe("04/04/2026");
    expect(dates.formatDateTime(late, "de")).toBe("04.04.2026, 01:30");
    // An unknown language reads as the site's own.
    expect(dates.formatDate(late, "xx")).toBe("04/04/2026");
    expect(dates.formatDate(late, "de")).toBe("04.04.2026");
    expect(built).toBe(6); // four languages' days, German's and English's days and times
  });
});
