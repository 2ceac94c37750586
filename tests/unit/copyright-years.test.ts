import { describe, expect, it } from "vitest";
import { copyrightYears } from "~/utils/dates";

describe("copyrightYears", () => {
  it("is 2025 in the opening year, then a range to the current year (never hard-coded)", () => {
    expect(copyrightYears(new Date("2025-06-01T12:00:00Z"))).toBe("2025");
    expect(copyrightYears(new Date("2026-11-23T12:00:00Z"))).toBe("2025–2026");
    expect(copyrightYears(new Date("2031-01-15T12:00:00Z"))).toBe("2025–2031");
  });
});
