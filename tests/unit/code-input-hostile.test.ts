import { describe, expect, it } from "vitest";
import { hostMatches, normalizeCodeInput, parseHosts, type PlatformLinkConfig } from "~db/platform-links";
import { SEED_PLATFORMS } from "~db/seed-data";

const configs: PlatformLinkConfig[] = SEED_PLATFORMS.map((p) => ({
  slug: p.slug,
  hosts: p.hosts,
  url_rules: JSON.stringify(p.url_rules),
  referral_url_template: p.referral_url_template,
  code_pattern: p.code_pattern,
}));

/** Whatever the input, an accepted result is a clean code and a link on one of the platform's own hosts. */
function expectSafe(input: string, config: PlatformLinkConfig) {
  const result = normalizeCodeInput(input, config);
  if (!result.ok) return result;
  expect(result.code).toMatch(/^[A-Z0-9](?:[A-Z0-9._-]*[A-Z0-9])?$/);
  expect(result.code.length).toBeLessThanOrEqual(64);
  if (result.referralUrl !== null) {
    const url = new URL(result.referralUrl);
    expect(["http:", "https:"]).toContain(url.protocol);
    expect(hostMatches(url.hostname, parseHosts(config.hosts))).toBe(true);
    expect(url.username + url.password).toBe("");
  }
  return result;
}

const HOSTILE = [
  "javascript:alert(1)",
  "JAVASCRIPT:alert(1)",
  " \tjavascript:alert(1)",
  "java\u0000script:alert(1)",
  "vbscript:msgbox(1)",
  "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
  "data:,?referral-code=abc&parrain=abc",
  "file:///etc/passwd",
  "//ts.la/abc123",
  "https://tesla.com@evil.example/referral/abc123",
  "https://evil.example/?next=https://ts.la/abc123",
  "https://evil.example/?referral-code=abc123&parrain=abc123",
  "https://evil.example/r/abc123",
  "https://prz.io.evil.example/abc123",
  "https://xn--tsla-6ve.com/referral/abc123",
  "https://tеsla.com/referral/abc123",
  "https://ts.la/%2e%2e%2fadmin",
  "https://ts.la/%3Cscript%3E",
  "https://ts.la/abc%00def",
  "ABC\u200B123",
  "ABC\u202E321",
  "ABC123\nDEF456",
  "ABC 123",
  '"><svg onload=alert(1)>',
  "'; DROP TABLE referral_codes; --",
  "🎁🎁🎁🎁",
  "Ａ Ｂ Ｃ１２３",
  "ß".repeat(10),
  "a".repeat(2049),
  `https://ts.la/${"a".repeat(3000)}`,
];

describe("hostile inputs never give an unsafe code or link", () => {
  for (const config of configs) {
    it.each(HOSTILE)(`${config.slug}: %s`, (input) => {
      expectSafe(input, config);
    });
  }

  it("script schemes, data URLs and foreign hosts are refused outright", () => {
    const tesla = configs.find((c) => c.slug === "tesla")!;
    const igraal = configs.find((c) => c.slug === "igraal")!;
    const revolut = configs.find((c) => c.slug === "revolut")!;
    for (const input of ["javascript:alert(1)", "vbscript:msgbox(1)", "data:,?parrain=abc", "file:///etc/passwd"]) {
      expect(normalizeCodeInput(input, igraal)).toMatchObject({ ok: false, error: "invalidLink" });
    }
    expect(normalizeCodeInput("https://evil.example/?parrain=abc123", igraal)).toEqual({ ok: false, error: "foreignLink" });
    expect(normalizeCodeInput("https://evil.example/?referral-code=abc123", revolut)).toEqual({
      ok: false,
      error: "foreignLink",
    });
    expect(normalizeCodeInput("https://tesla.com@evil.example/referral/abc123", tesla)).toEqual({
      ok: false,
      error: "foreignLink",
    });
    expect(normalizeCodeInput("https://tеsla.com/referral/abc123", tesla)).toEqual({ ok: false, error: "foreignLink" });
    expect(normalizeCodeInput("ABC\u200B123", tesla)).toEqual({ ok: false, error: "invalidCode" });
    expect(normalizeCodeInput("ABC123\nDEF456", tesla)).toEqual({ ok: false, error: "invalidCode" });
    expect(normalizeCodeInput(`https://ts.la/${"a".repeat(3000)}`, tesla)).toEqual({ ok: false, error: "inputTooLong" });
  });

  it("a code hidden in a foreign link's query is not laundered into the platform's link", () => {
    const tesla = configs.find((c) => c.slug === "tesla")!;
    expect(normalizeCodeInput("https://evil.example/?next=https://ts.la/abc123", tesla)).toEqual({
      ok: false,
      error: "foreignLink",
    });
  });
});
