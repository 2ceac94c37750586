import type { DocumentFindings, Examples } from "./document-reader";
import { SITEMAP_NS } from "./document-reader";

/**
 * The report's checks, built from what the fetch and the reader found. Pure: the route renders the
 * same report as HTML or JSON. Every message is a key of the `audit` namespace plus its values, so
 * it is shown in the reader's language.
 */

export type CheckStatus = "success" | "warning" | "error" | "skipped";

/** In report order. The page's `data-check` values; documented in docs/features.md. */
export const CHECK_IDS = [
  "http-status",
  "response-time",
  "content-type",
  "compression",
  "size",
  "encoding",
  "xml-declaration",
  "well-formed",
  "root-element",
  "namespace",
  "sitemap-index",
  "url-count",
  "loc",
  "same-host",
  "duplicates",
  "lastmod",
  "changefreq",
  "priority",
  "robots-declared",
  "robots-allowed",
  "robots-urls",
  "www",
] as const;
export type CheckId = (typeof CHECK_IDS)[number];

export interface Message {
  key: string;
  values?: Record<string, string | number>;
}

export interface CheckResult {
  id: CheckId;
  status: CheckStatus;
  message: Message;
  /** Up to 20 offending URLs (with the bad value when there is one). */
  examples?: string[];
}

export interface ChildSummary {
  url: string;
  status: Exclude<CheckStatus, "skipped">;
  urls: number;
  /** Ids of the checks that did not pass. */
  failing: CheckId[];
  /** Why it could not be audited (refused, fetch failed, time limit). */
  failure?: Message;
}

export interface AuditReport {
  url: string;
  finalUrl: string;
  www: boolean;
  status: Exclude<CheckStatus, "skipped">;
  checks: CheckResult[];
  children: ChildSummary[];
}

/** The spec's limits (sitemaps.org and Google's): per file, after decompression. */
export const LIMITS = {
  maxBytes: 50 * 1024 * 1024,
  maxUrls: 50_000,
  maxChildren: 50,
  responseGoodMs: 1000,
  responseWarnMs: 3000,
} as const;

const RANK: Record<CheckStatus, number> = { skipped: 0, success: 1, warning: 2, error: 3 };

export function worst(statuses: CheckStatus[]): Exclude<CheckStatus, "skipped"> {
  let result: CheckStatus = "success";
  for (const s of statuses) if (RANK[s] > RANK[result]) result = s;
  return result === "skipped" ? "success" : result;
}

/** What robots.txt said, per RFC 9309: 4xx means allow all, 5xx or unreachable means disallow all. */
export type RobotsOutcome =
  | { kind: "ok"; url: string; sitemaps: string[]; allowed: boolean; line: number }
  | { kind: "missing"; url: string; status: number }
  | { kind: "unavailable"; url: string; status: number | null };

export interface DocumentFacts {
  status: number;
  redirects: string[];
  elapsedMs: number;
  contentType: string;
  body: { compressed: boolean; wireBytes: number; bytes: number; truncated: boolean; decompressError: string | null };
  findings: DocumentFindings | null;
  finalUrl: URL;
}

/** Megabytes as a number text; each language writes its own unit. */
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 1);
const msg = (key: string, values?: Message["values"]): Message => (values ? { key, values } : { key });
const check = (id: CheckId, status: CheckStatus, message: Message, examples?: Examples): CheckResult =>
  examples && examples.items.length > 0 ? { id, status, message, examples: examples.items } : { id, status, message };
const skip = (id: CheckId, key = "common.skipped") => check(id, "skipped", msg(key));

/** The checks about one document (a sitemap or an index); robots and www are added by the caller. */
export function documentChecks(facts: DocumentFacts): CheckResult[] {
  const out: CheckResult[] = [];
  const { status, findings: f, body } = facts;
  const ok = status === 200;
  const redirects = facts.redirects.length;

  out.push(
    ok
      ? check("http-status", "success", msg(redirects ? "http-status.okRedirected" : "http-status.ok", { status, redirects }))
      : check("http-status", "error", msg("http-status.bad", { status })),
  );

  const ms = Math.round(facts.elapsedMs);
  out.push(
    ms < LIMITS.responseGoodMs
      ? check("response-time", "success", msg("response-time.fast", { ms }))
      : ms < LIMITS.responseWarnMs
        ? check("response-time", "warning", msg("response-time.slow", { ms }))
        : check("response-time", "error", msg("response-time.tooSlow", { ms })),
  );

  const type = facts.contentType.split(";")[0]!.trim().toLowerCase();
  if (!ok) {
    for (const id of CHECK_IDS.slice(2, 18)) out.push(skip(id, "common.notFetched"));
    return out;
  }
  if (!type) out.push(check("content-type", "warning", msg("content-type.missing")));
  else if (type === "text/html" || type === "application/xhtml+xml")
    out.push(check("content-type", "error", msg("content-type.html", { type })));
  else if (/(^|[/+])xml$/.test(type) || (body.compressed && /gzip/.test(type)))
    out.push(check("content-type", "success", msg("content-type.ok", { type })));
  else out.push(check("content-type", "error", msg("content-type.bad", { type })));

  if (body.decompressError) out.push(check("compression", "error", msg("compression.corrupt")));
  else if (body.compressed)
    out.push(check("compression", "success", msg("compression.gzip", { wire: mb(body.wireBytes), size: mb(body.bytes) })));
  else out.push(check("compression", "success", msg("compression.plain")));

  out.push(
    body.truncated
      ? check("size", "error", msg("size.tooBig", { max: mb(LIMITS.maxBytes) }))
      : check("size", "success", msg("size.ok", { size: mb(body.bytes) })),
  );

  if (!f || body.bytes === 0) {
    for (const id of CHECK_IDS.slice(5, 18)) out.push(skip(id, "common.empty"));
    return out;
  }

  const declared = f.xmlDeclaration?.encoding;
  if (f.invalidUtf8) out.push(check("encoding", "error", msg("encoding.invalidUtf8")));
  else if (declared && !/^utf-?8$/i.test(declared))
    out.push(check("encoding", "error", msg("encoding.declared", { encoding: declared })));
  else if (f.bom) out.push(check("encoding", "warning", msg("encoding.bom")));
  else out.push(check("encoding", "success", msg("encoding.ok")));

  if (f.leadingJunk) out.push(check("xml-declaration", "error", msg("xml-declaration.leading")));
  else if (f.xmlDeclaration) out.push(check("xml-declaration", "success", msg("xml-declaration.ok")));
  else out.push(check("xml-declaration", "warning", msg("xml-declaration.missing")));

  if (f.wellFormedError)
    out.push(check("well-formed", "error", msg("well-formed.bad", { error: f.wellFormedError.slice(0, 200) })));
  else if (!f.ended) out.push(skip("well-formed", "well-formed.unfinished"));
  else out.push(check("well-formed", "success", msg("well-formed.ok")));

  const root = f.root;
  const isSitemap = root?.kind === "urlset" || root?.kind === "sitemapindex";
  if (!root) out.push(check("root-element", "error", msg("root-element.none")));
  else if (root.kind === "html") out.push(check("root-element", "error", msg("root-element.html")));
  else if (!isSitemap) out.push(check("root-element", "error", msg("root-element.other", { name: root.name })));
  else out.push(check("root-element", "success", msg("root-element.ok", { name: root.name })));

  if (!isSitemap) {
    for (const id of CHECK_IDS.slice(9, 18)) out.push(skip(id, "common.notASitemap"));
    return out;
  }
  out.push(
    root.uri === SITEMAP_NS
      ? check("namespace", "success", msg("namespace.ok"))
      : check("namespace", "error", msg("namespace.bad", { uri: root.uri || "—", expected: SITEMAP_NS })),
  );

  // Filled in by the caller once the children are audited.
  out.push(skip("sitemap-index", "sitemap-index.notIndex"));

  const count = f.entries;
  if (count > LIMITS.maxUrls) out.push(check("url-count", "error", msg("url-count.tooMany", { count, max: LIMITS.maxUrls })));
  else if (count === 0) out.push(check("url-count", "warning", msg("url-count.empty")));
  else out.push(check("url-count", "success", msg("url-count.ok", { count })));

  out.push(
    f.badLoc.count
      ? check("loc", "error", msg("loc.bad", { count: f.badLoc.count, max: 2048 }), f.badLoc)
      : check("loc", "success", msg("loc.ok")),
  );
  const origin = facts.finalUrl.origin;
  out.push(
    f.otherHost.count
      ? check("same-host", "error", msg("same-host.bad", { count: f.otherHost.count, origin }), f.otherHost)
      : check("same-host", "success", msg("same-host.ok", { origin })),
  );
  out.push(
    f.duplicates.count
      ? check("duplicates", "warning", msg("duplicates.bad", { count: f.duplicates.count }), f.duplicates)
      : check("duplicates", "success", msg("duplicates.ok")),
  );
  if (f.lastmodInvalid.count)
    out.push(check("lastmod", "error", msg("lastmod.invalid", { count: f.lastmodInvalid.count }), f.lastmodInvalid));
  else if (f.lastmodFuture.count)
    out.push(check("lastmod", "warning", msg("lastmod.future", { count: f.lastmodFuture.count }), f.lastmodFuture));
  else if (count > 0 && f.lastmodMissing === count) out.push(check("lastmod", "success", msg("lastmod.none")));
  else out.push(check("lastmod", "success", msg("lastmod.ok", { count: count - f.lastmodMissing })));
  out.push(
    f.changefreqInvalid.count
      ? check("changefreq", "error", msg("changefreq.bad", { count: f.changefreqInvalid.count }), f.changefreqInvalid)
      : check("changefreq", "success", msg("changefreq.ok")),
  );
  out.push(
    f.priorityInvalid.count
      ? check("priority", "error", msg("priority.bad", { count: f.priorityInvalid.count }), f.priorityInvalid)
      : check("priority", "success", msg("priority.ok")),
  );
  return out;
}

/** robots.txt checks for the sitemap at `sitemapUrls` (the URL asked for and where it ended). */
export function robotsChecks(robots: RobotsOutcome, sitemapUrls: string[], findings: DocumentFindings | null): CheckResult[] {
  const out: CheckResult[] = [];
  if (robots.kind === "ok") {
    const declared = robots.sitemaps.some((s) => sitemapUrls.includes(s.trim()));
    out.push(
      declared
        ? check("robots-declared", "success", msg("robots-declared.ok", { robots: robots.url }))
        : check(
            "robots-declared",
            "warning",
            msg("robots-declared.missing", { robots: robots.url, count: robots.sitemaps.length }),
          ),
    );
    out.push(
      robots.allowed
        ? check("robots-allowed", "success", msg("robots-allowed.ok"))
        : check("robots-allowed", "error", msg("robots-allowed.blocked", { line: robots.line })),
    );
    const blocked = findings?.blockedByRobots;
    out.push(
      !findings
        ? skip("robots-urls", "common.notFetched")
        : blocked && blocked.count
          ? check("robots-urls", "warning", msg("robots-urls.blocked", { count: blocked.count }), blocked)
          : check("robots-urls", "success", msg("robots-urls.ok")),
    );
    return out;
  }
  if (robots.kind === "missing") {
    out.push(check("robots-declared", "warning", msg("robots-declared.noRobots", { robots: robots.url, status: robots.status })));
    out.push(check("robots-allowed", "success", msg("robots-allowed.noRobots", { status: robots.status })));
    out.push(skip("robots-urls", "robots-urls.noRobots"));
    return out;
  }
  const status = robots.status ?? "—";
  out.push(check("robots-declared", "warning", msg("robots-declared.unavailable", { robots: robots.url, status })));
  out.push(check("robots-allowed", "error", msg("robots-allowed.unavailable", { status })));
  out.push(skip("robots-urls", "robots-urls.unavailable"));
  return out;
}

/** The www checkbox against the host the sitemap was finally served from. */
export function wwwCheck(www: boolean, asked: URL, final: URL): CheckResult {
  const host = final.hostname;
  if (/^[\d.]+$|^\[/.test(host)) return skip("www", "www.ipAddress");
  const hasWww = host.startsWith("www.");
  const from = asked.hostname !== host ? asked.hostname : "";
  if (hasWww === www) return check("www", "success", msg(www ? "www.okWww" : "www.okBare", { host }));
  return check("www", "error", msg(www ? "www.expectedWww" : "www.expectedBare", { host, from: from || host }));
}

export function overall(checks: CheckResult[]): AuditReport["status"] {
  return worst(checks.map((c) => c.status));
}
