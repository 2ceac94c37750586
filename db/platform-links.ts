/**
 * Referral links handled by data, not code. Each platform row carries:
 * - `hosts`: space-separated host names its links may live on (sub-domains included);
 * - `url_rules`: JSON array of extraction rules, tried in order;
 * - `referral_url_template`: the link built from a plain code, `{code}` replaced.
 *
 * Rules:
 * - `{ "type": "query", "param": "parrain" }` reads a query parameter;
 * - `{ "type": "path", "after": "r" }` reads the path segment that follows `/r/`;
 * - `{ "type": "path" }` reads the first path segment;
 * - `"hosts": [...]` restricts a rule to some of the platform's hosts.
 * The value read is cut at the first `&`, `#`, `!`, `?` or `/`, then upper-cased. The link kept is the
 * template's for that code, else the typed one cut down to that code's parameter or segment.
 * Pure functions: used by the server, the admin forms and the tests alike.
 */

export type UrlRule = { type: "query"; param: string; hosts?: string[] } | { type: "path"; after?: string; hosts?: string[] };

export interface PlatformLinkConfig {
  slug: string;
  hosts: string;
  url_rules: string;
  referral_url_template: string | null;
  code_pattern?: string | null;
}

export const MAX_INPUT_LENGTH = 2048;
const MAX_CODE_LENGTH = 64;
/** Upper-case letters, digits, and `-`, `_`, `.` inside; ASCII only so look-alike letters cannot pass. */
const CODE_SHAPE = /^[A-Z0-9](?:[A-Z0-9._-]*[A-Z0-9])?$/;

export type CodeInputError =
  "codeRequired" | "inputTooLong" | "invalidLink" | "foreignLink" | "noCodeInLink" | "invalidCode" | "patternMismatch";

export type NormalizedCode = { ok: true; code: string; referralUrl: string | null } | { ok: false; error: CodeInputError };

export function parseHosts(hosts: string): string[] {
  return hosts
    .split(/[\s,]+/)
    .map((h) =>
      h
        .trim()
        .toLowerCase()
        .replace(/^\.+|\.+$/g, ""),
    )
    .filter(Boolean);
}

function parseUrlRules(json: string): UrlRule[] {
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return [];
    return value.filter(isUrlRule);
  } catch {
    return [];
  }
}

function isUrlRule(value: unknown): value is UrlRule {
  if (!value || typeof value !== "object") return false;
  const rule = value as Record<string, unknown>;
  if (rule.hosts !== undefined && !(Array.isArray(rule.hosts) && rule.hosts.every((h) => typeof h === "string"))) {
    return false;
  }
  if (rule.type === "query") return typeof rule.param === "string" && rule.param.length > 0;
  if (rule.type === "path") return rule.after === undefined || typeof rule.after === "string";
  return false;
}

export function hostMatches(host: string, allowed: string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  return allowed.some((a) => h === a || h.endsWith(`.${a}`));
}

/** Only http(s) URLs, parsed; anything else (javascript:, data:, relative) gives null. */
export function parseHttpUrl(input: string): URL | null {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return null;
  }
  return url.protocol === "https:" || url.protocol === "http:" ? url : null;
}

/** An href safe to render, or null. Use at render time on any stored link. */
export function safeHref(input: string | null | undefined): string | null {
  if (!input) return null;
  const url = parseHttpUrl(input.trim());
  return url ? url.href : null;
}

function looksLikeUrl(input: string): boolean {
  // A scheme ("x:" or "x://") or a dotted host with a path: treated as a link, never as a code.
  return /^[a-z][a-z0-9+.-]*:/i.test(input) || /^[^\s/]+\.[a-z]{2,}(\/|$)/i.test(input);
}

/** A link's code as written (case kept), cut at the first `&`, `#`, `!`, `?` or `/`. */
function cutValue(raw: string): string {
  let value = raw;
  try {
    value = decodeURIComponent(raw);
  } catch {
    // keep the raw value; it fails the shape check below if it is garbage
  }
  return value.split(/[&#!?/]/, 1)[0]!.trim();
}

/** The code a link carries, and the platform's standard link for exactly that code (see `normalizeCodeInput`). */
function readLink(
  url: URL,
  config: Pick<PlatformLinkConfig, "hosts" | "url_rules">,
): { code: string; value: string; link: string } | null {
  const platformHosts = parseHosts(config.hosts);
  for (const rule of parseUrlRules(config.url_rules)) {
    const ruleHosts = rule.hosts ? rule.hosts.map((h) => h.toLowerCase()) : platformHosts;
    if (!hostMatches(url.hostname, ruleHosts)) continue;
    let raw: string | null | undefined;
    let link: (value: string) => string;
    if (rule.type === "query") {
      // Read the raw query ourselves: URLSearchParams would turn '+' into a space.
      const match = url.search
        .slice(1)
        .split("&")
        .find((pair) => pair.split("=", 1)[0] === rule.param);
      raw = match?.slice(rule.param.length + 1);
      // The page's address with this one parameter: no second value, no other parameter.
      link = (value) => `${url.origin}${url.pathname}?${rule.param}=${encodeURIComponent(value)}`;
    } else {
      const segments = url.pathname.split("/").filter(Boolean);
      const index = rule.after ? segments.findIndex((s) => s.toLowerCase() === rule.after!.toLowerCase()) + 1 : 0;
      raw = index > 0 || !rule.after ? segments[index] : undefined;
      // The rule's own segment and the code's: no segment before or after (a second code).
      link = (value) =>
        `${url.origin}/${[...segments.slice(Math.max(0, index - 1), index), encodeURIComponent(value)].join("/")}`;
    }
    if (raw) {
      const value = cutValue(raw);
      const code = value.toUpperCase();
      if (code) return { code, value, link: link(value) };
    }
  }
  return null;
}

export function extractCodeFromUrl(url: URL, config: Pick<PlatformLinkConfig, "hosts" | "url_rules">): string | null {
  return readLink(url, config)?.code ?? null;
}

export function buildReferralUrl(code: string, template: string | null | undefined): string | null {
  if (!template || !template.includes("{code}")) return null;
  const built = template.split("{code}").join(encodeURIComponent(code));
  return safeHref(built);
}

/**
 * A stored link with its code swapped for a renamed one, the rest kept as it was (the admin changed
 * the code, not the link: a Revolut link's "!JAN" stays). The code is found once, case folded, and
 * written in the case the link used; null when it is absent or there twice, or when the new link
 * is not on the platform's hosts or does not read back as the new code (the caller then builds the
 * platform's standard link).
 */
export function swapCodeInLink(
  link: string,
  oldCode: string,
  newCode: string,
  config: Pick<PlatformLinkConfig, "hosts" | "url_rules">,
): string | null {
  if (!parseHttpUrl(link) || !oldCode) return null;
  const folded = link.toLowerCase();
  const old = oldCode.toLowerCase();
  const at = folded.indexOf(old);
  if (at < 0 || folded.indexOf(old, at + 1) >= 0) return null;
  const written = link.slice(at, at + oldCode.length);
  const lowerCase = written === written.toLowerCase() && written !== written.toUpperCase();
  const swapped = `${link.slice(0, at)}${encodeURIComponent(lowerCase ? newCode.toLowerCase() : newCode)}${link.slice(at + oldCode.length)}`;
  const url = parseHttpUrl(swapped);
  if (!url || !hostMatches(url.hostname, parseHosts(config.hosts))) return null;
  if (extractCodeFromUrl(url, config) !== newCode.toUpperCase()) return null;
  return safeHref(swapped);
}

function codeMatchesPattern(code: string, pattern: string | null | undefined): boolean {
  if (!pattern) return true;
  try {
    return new RegExp(pattern).test(code);
  } catch {
    // A broken pattern must not lock out every submission; admins are told when they save one.
    return true;
  }
}

/**
 * Normalises what a visitor typed for a platform into a code and a safe link:
 * trim; a link of the platform gives its code; upper-case. The kept link is the platform's standard
 * link for exactly that code: its template's, else the typed link cut down to that code's one
 * parameter or path segment (http(s), on one of the platform's hosts).
 */
export function normalizeCodeInput(input: string, config: PlatformLinkConfig): NormalizedCode {
  const trimmed = input.trim();
  if (!trimmed) return { ok: false, error: "codeRequired" };
  if (trimmed.length > MAX_INPUT_LENGTH) return { ok: false, error: "inputTooLong" };

  let code: string;
  let referralUrl: string | null = null;
  if (looksLikeUrl(trimmed)) {
    const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
    const url = parseHttpUrl(withScheme);
    if (!url) return { ok: false, error: "invalidLink" };
    if (!hostMatches(url.hostname, parseHosts(config.hosts))) return { ok: false, error: "foreignLink" };
    const read = readLink(url, config);
    if (!read) return { ok: false, error: "noCodeInLink" };
    code = read.code;
    // Never the link as typed (decision 317): the template's link for this code, else the link
    // rebuilt with only this code (a second parameter or a segment after it is a second referral).
    const keepable = !url.username && !url.password && !url.port && read.link.length <= MAX_INPUT_LENGTH;
    // The code as the link wrote it (a platform may tell cases apart).
    referralUrl = buildReferralUrl(read.value, config.referral_url_template) ?? (keepable ? safeHref(read.link) : null);
  } else {
    code = trimmed.toUpperCase();
  }

  if (code.length > MAX_CODE_LENGTH || !CODE_SHAPE.test(code)) return { ok: false, error: "invalidCode" };
  if (!codeMatchesPattern(code, config.code_pattern)) return { ok: false, error: "patternMismatch" };
  referralUrl ??= buildReferralUrl(code, config.referral_url_template);
  return { ok: true, code, referralUrl };
}
