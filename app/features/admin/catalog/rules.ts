import { parseHosts, parseHttpUrl, type UrlRule } from "~db/platform-links";

/**
 * A new platform's extraction rule, read off its link template, so a pasted link of the platform
 * yields its code without any code change: `…?param={code}` reads that parameter,
 * `…/r/{code}` the segment after `r`, `host/{code}` the first segment.
 */
export function deriveUrlRules(template: string | null | undefined): UrlRule[] {
  if (!template || !template.includes("{code}")) return [];
  const url = parseHttpUrl(template.replace(/\{code\}/g, "CODE__PLACEHOLDER"));
  if (!url) return [];
  for (const [param, value] of url.searchParams) {
    if (value.includes("CODE__PLACEHOLDER")) return [{ type: "query", param }];
  }
  const segments = url.pathname.split("/").filter(Boolean);
  const index = segments.findIndex((s) => s.includes("CODE__PLACEHOLDER"));
  if (index === 0) return [{ type: "path" }];
  if (index > 0) return [{ type: "path", after: segments[index - 1] }];
  return [];
}

/** Space-separated, lower-case host names, de-duplicated. */
export function normalizeHosts(value: string | undefined): string {
  return [...new Set(parseHosts(value ?? ""))].join(" ");
}

const HOST_PATTERN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
export function hostsAreValid(value: string | undefined): boolean {
  return parseHosts(value ?? "").every((h) => HOST_PATTERN.test(h));
}

/** A link template is http(s) and holds `{code}`. */
export function templateIsValid(value: string | undefined): boolean {
  if (!value) return true;
  return value.includes("{code}") && parseHttpUrl(value.replace(/\{code\}/g, "X")) !== null;
}
