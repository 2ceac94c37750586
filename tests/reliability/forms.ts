import fc from "fast-check";

/**
 * Every form a stranger or an admin can post, for the fuzzing run. A new form is one more line:
 * its path, who may post it, and its fields, each an arbitrary of the values to try (valid ones
 * mixed with hostile ones by the helpers below). `{slug}`, `{token}` or `{id}` in a path becomes a real or
 * made-up value (for `{token}`, half the time a real owner token: see LIVE). The sign-in form gets a smaller share: each attempt costs a password hash.
 */
export interface FormUnderTest {
  path: string;
  /** Posted with the admin's session cookie. */
  admin?: boolean;
  /** GET forms (the query string is fuzzed instead of a body). */
  method?: "GET";
  fields: Record<string, fc.Arbitrary<string>>;
  /** Fields sent as files when the body is multipart. */
  files?: string[];
  /** This form's share of the posts relative to the others (default 1): less for slow forms. */
  share?: number;
}

/**
 * Stand-ins for secrets only a running server can hand out: the fuzzing replaces them with a real
 * draw token (from draws it makes first) or a real owner token (of codes it seeds), so the trust
 * loop's forms are tried past their token check too, not only refused.
 */
export const LIVE = { drawToken: "{live:draw-token}", ownerToken: "{live:owner-token}" } as const;

/** Strings that have broken web apps before: markup, schemes, SQL, control characters, huge and odd numbers. */
const HOSTILE = [
  "",
  " ",
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "javascript:alert(1)",
  "data:text/html,<b>x</b>",
  "' OR 1=1 --",
  "'; DROP TABLE platforms; --",
  "\u0000",
  "\r\nSet-Cookie: x=1",
  "/\t/evil.example",
  "//evil.example",
  "https://evil.example/r/x",
  "http://127.0.0.1:1/",
  "../../etc/passwd",
  "%00%0d%0a",
  "😀".repeat(50),
  "\ud800",
  "a".repeat(5_000),
  "-1",
  "0",
  "1e309",
  "9007199254740993",
  "NaN",
  "null",
  "[]",
  '{"a":1}',
  "true",
];

/** One of the valid values, or anything at all. */
function oneOf(...valid: string[]): fc.Arbitrary<string> {
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...valid) }, { weight: 2, arbitrary: text() });
}

/** Free text: hostile samples, random strings, random code points. */
function text(...examples: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    ...(examples.length ? [fc.constantFrom(...examples)] : []),
    fc.constantFrom(...HOSTILE),
    fc.string({ maxLength: 120 }),
    fc.string({ unit: "binary", maxLength: 60 }),
  );
}

/** A row id: small real-looking ones mostly, some nonsense. */
function id(): fc.Arbitrary<string> {
  return fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1, max: 12 }).map(String) }, { weight: 1, arbitrary: text() });
}

function url(): fc.Arbitrary<string> {
  return fc.oneof(fc.webUrl({ withQueryParameters: true }), text("https://example.com/offer"));
}

/** For forms that make the server fetch a URL: only addresses that stay on this machine. */
function loopbackUrl(): fc.Arbitrary<string> {
  return fc.constantFrom(
    "http://127.0.0.1:9/sitemap.xml",
    "http://localhost:9/",
    "http://[::1]:9/x",
    "ftp://127.0.0.1/",
    "file:///etc/passwd",
    "",
    "not a url",
  );
}

/** A draw token: a real one (see LIVE) half the time, otherwise anything. */
const DRAW_TOKEN = fc.oneof(fc.constant(LIVE.drawToken), text());
const CONFIRM = oneOf("yes");
const REASON = oneOf("expired", "limit-reached", "wrong-region", "conditions-not-met", "other");

const PLATFORM = oneOf("tesla", "revolut", "n26", "holy", "no-such-platform");
const BOOL = oneOf("true", "false", "on", "1");

// prettier-ignore
export const FORMS: FormUnderTest[] = [
  { path: "/preferences", fields: { intent: oneOf("set-language", "set-theme"), language: oneOf("fr", "en", "de", "es"), theme: oneOf("light", "dark"), redirectTo: text("/", "/submit?lng=en") } },
  { path: "/submit", fields: { intent: oneOf("submit", "deletion-reason", "request-deletion", "cancel"), platform: PLATFORM, code: text("ABC123", "https://www.revolut.com/referral/?referral-code=abc"), reason: text(), website_confirm: oneOf(""), "g-recaptcha-response": text() } },
  { path: "/suggest-platform", fields: { intent: oneOf("suggest", "vote"), name: text("Boursorama"), description: text(), website_url: url(), suggestion_id: id(), website_confirm: oneOf("") } },
  { path: "/{slug}/get-code", fields: { intent: oneOf("draw") } },
  { path: "/random", fields: { intent: oneOf("draw") } },
  { path: "/admin/login", share: 0.3, fields: { email: fc.oneof(fc.emailAddress(), text()), password: text(), redirectTo: text("/admin") } },
  { path: "/admin/logout", fields: { intent: text() } },
  { path: "/admin/codes", admin: true, fields: { intent: oneOf("restore", "toggle-active", "toggle-permanent", "set-expiry", "update", "delete"), id: id(), confirm: CONFIRM, days: oneOf("0", "7", "400"), code: text("NEWCODE1"), referral_url: url() } },
  { path: "/admin/platforms", admin: true, files: ["file"], fields: { intent: oneOf("toggle-active", "update", "upload-logo", "remove-logo", "delete"), id: id(), confirm: CONFIRM, name: text("Tesla"), slug: text("tesla-2"), code_pattern: text("^[A-Z0-9]+$", "(a+)+$"), description: text(), hosts: text("tesla.com"), referral_url_template: text("https://ts.la/{code}"), variant: oneOf("light", "dark"), file: text("\x89PNG\r\n\x1a\n") } },
  { path: "/admin/platforms/new", admin: true, fields: { intent: oneOf("create"), suggestion_id: id(), name: text("Fuzzbank"), slug: text("fuzzbank"), description: text("Une banque"), code_pattern: text(), emoji: text("🏦"), gradient: text("blue"), display_order: oneOf("1", "999999"), is_active: BOOL, show_in_homepage: BOOL, show_in_partnerships: BOOL, hosts: text("fuzzbank.example"), referral_url_template: text("https://fuzzbank.example/r/{code}") } },
  { path: "/admin/partnerships", admin: true, fields: { intent: oneOf("create", "update", "delete", "move-up", "move-down"), id: id(), confirm: CONFIRM, name: text("Partner"), url: url(), logo_url: url(), description: text(), display_mode: oneOf("both", "logo", "text"), is_active: BOOL } },
  { path: "/admin/deletions", admin: true, fields: { intent: oneOf("approve", "reject", "delete"), id: id(), confirm: CONFIRM } },
  { path: "/admin/suggestions", admin: true, fields: { intent: oneOf("approve", "reject"), id: id(), confirm: CONFIRM } },
  { path: "/admin/scores", admin: true, fields: { intent: oneOf("update", "delete"), id: id(), confirm: CONFIRM, player_name: text("Ada"), score: oneOf("10", "-5", "1000000001") } },
  { path: "/admin/settings", admin: true, fields: { intent: oneOf("save"), key: oneOf("gtm_id", "ga4_id", "adsense_head", "enable_theme_toggle", "default_ai_provider", "price_tracker_name", "price_tracker_url"), value: text("GTM-ABC123", "true", "openai", "https://example.com") } },
  // Later features: one line each.
  { path: "/admin/assistant", admin: true, fields: { intent: oneOf("send", "delete-conversation"), message: text(), provider: oneOf("anthropic", "openai"), conversation_id: id() } },
  { path: "/admin/assistant/{id}", admin: true, fields: { intent: oneOf("send", "delete-conversation"), message: text(), provider: oneOf("anthropic", "openai"), conversation_id: id() } },
  { path: "/admin/assistant/stream", admin: true, fields: { intent: oneOf("send"), message: text(), provider: oneOf("anthropic", "openai"), conversation_id: id() } },
  { path: "/game/start", fields: { device_type: oneOf("mobile", "desktop") } },
  { path: "/game/scores", fields: { token: text(), player_name: text("Ada"), score: oneOf("10", "600"), device_type: oneOf("mobile", "desktop"), collected_at: text("100,200") } },
  { path: "/sitemap-audit", method: "GET", fields: { url: loopbackUrl(), www: oneOf("on") } },
  { path: "/{slug}/get-code", fields: { intent: oneOf("report"), outcome: oneOf("worked", "failed"), draw: DRAW_TOKEN } },
  { path: "/random", fields: { intent: oneOf("report"), outcome: oneOf("worked", "failed"), draw: DRAW_TOKEN } },
  // Failure reasons (one form per reason on the result page) and the offer form of the admin's platforms tab.
  { path: "/{slug}/get-code", fields: { intent: oneOf("report"), outcome: oneOf("failed", "worked"), reason: REASON, draw: DRAW_TOKEN } },
  { path: "/random", fields: { intent: oneOf("report"), outcome: oneOf("failed"), reason: REASON, draw: DRAW_TOKEN } },
  { path: "/admin/platforms", admin: true, fields: { intent: oneOf("update-offer"), id: id(), offer_referee: text("10 € offerts"), offer_referee_en: text(), offer_referrer: text(), offer_conditions: text(), offer_steps: text("Ouvrez le lien\nCréez votre compte"), offer_steps_de: text(), offer_checked_on: oneOf("2026-11-01", "2026-02-30", "2999-01-01", "") } },
  // One platform's editor page: it takes the same intents for its own id only (another id is a 400).
  { path: "/admin/platforms/1", admin: true, files: ["file"], fields: { intent: oneOf("update", "update-offer", "upload-logo", "remove-logo"), id: oneOf("1", "2"), name: text("Tesla"), slug: text("tesla-2"), code_pattern: text("^[A-Z0-9]+$", "(a+)+$"), description: text(), hosts: text("tesla.com"), referral_url_template: text("https://ts.la/{code}"), offer_referee: text("10 € offerts"), offer_steps: text("Ouvrez le lien\nCréez votre compte"), offer_checked_on: oneOf("2026-11-01", "2026-02-30", ""), variant: oneOf("light", "dark"), file: text("\x89PNG\r\n\x1a\n") } },
  { path: "/admin/codes", admin: true, fields: { intent: oneOf("lift-cap"), id: id() } },
  { path: "/api/platforms.json", method: "GET", fields: { lng: oneOf("fr", "en", "de", "es", "xx") } },
  { path: "/my-code/{token}", fields: { intent: oneOf("pause", "resume", "delete"), confirm: CONFIRM } },
];
