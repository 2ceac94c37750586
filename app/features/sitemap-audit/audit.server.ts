import { createRequire } from "node:module";
import type robotsParserType from "robots-parser";
import { setImmediate } from "node:timers/promises";
import {
  CHECK_IDS,
  documentChecks,
  LIMITS,
  overall,
  robotsChecks,
  worst,
  wwwCheck,
  type AuditReport,
  type CheckResult,
  type ChildSummary,
  type DocumentFacts,
  type RobotsOutcome,
} from "./checks";
import { SitemapDocumentReader } from "./document-reader";
import {
  AuditFetchError,
  AuditRefusal,
  parseAuditUrl,
  readBody,
  readSmallBody,
  safeGet,
  type BodyStats,
  type FetchPolicy,
} from "./fetch.server";

/** The crawler whose robots.txt rules are checked. */
const CRAWLER = "Googlebot";
/** RFC 9309 asks crawlers to read at least 500 KiB of robots.txt. */
const ROBOTS_MAX_BYTES = 500 * 1024;
const SITEMAP_ACCEPT = "application/xml, text/xml;q=0.9, application/gzip;q=0.8, */*;q=0.5";

export interface AuditOptions {
  allowedHosts: ReadonlySet<string>;
  /** The whole audit, children included. */
  timeoutMs?: number;
  connectTimeoutMs?: number;
  maxBytes?: number;
  userAgent?: string;
  now?: Date;
  /** The visitor left: stop. */
  signal?: AbortSignal;
}

const AUDIT_TIMEOUT_MS = 30_000;
const CONNECT_TIMEOUT_MS = 5_000;

interface Fetched {
  facts: DocumentFacts;
}

async function fetchRobots(
  origin: string,
  policy: FetchPolicy,
): Promise<RobotsOutcome & { robot?: ReturnType<typeof robotsParserType> }> {
  const url = `${origin}/robots.txt`;
  try {
    const response = await safeGet(new URL(url), policy, "text/plain, */*;q=0.5");
    if (response.status >= 200 && response.status < 300) {
      const text = await readSmallBody(response, ROBOTS_MAX_BYTES, policy.signal);
      // Loaded at the first audit, not at every start-up of the server (decision 241).
      const robotsParser = createRequire(import.meta.url)("robots-parser") as typeof robotsParserType;
      const robot = robotsParser(response.url.href, withBoundedWildcards(text));
      return { kind: "ok", url, sitemaps: robot.getSitemaps(), allowed: true, line: -1, robot };
    }
    response.body.destroy();
    if (response.status >= 400 && response.status < 500) return { kind: "missing", url, status: response.status };
    return { kind: "unavailable", url, status: response.status };
  } catch (error) {
    if (error instanceof AuditFetchError && error.reason === "too-many-redirects") return { kind: "missing", url, status: 310 };
    if (policy.signal.aborted) throw error;
    return { kind: "unavailable", url, status: null };
  }
}

/**
 * Matching a URL against a rule costs the rule's length times the URL's from its first `*` on
 * (400 KB of `*` took 1.3 s per URL), and every URL of the sitemap is matched against every rule:
 * the wildcard parts of all rules together are capped, and rules past the cap are ignored (real
 * robots.txt files hold a few hundred characters of them; decision 200).
 */
const MAX_WILDCARD_RULE_CHARS = 4 * 1024;

function withBoundedWildcards(text: string): string {
  let left = MAX_WILDCARD_RULE_CHARS;
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => {
      const rule = /^\s*(?:allow|disallow)\s*:\s*([^#]*)/i.exec(line);
      const star = rule ? rule[1]!.indexOf("*") : -1;
      if (star < 0) return line;
      left -= rule![1]!.trimEnd().length - star;
      // Emptied, not removed: the report names rules by their line number.
      return left >= 0 ? line : "";
    })
    .join("\n");
}

/** Fetches and reads one document; transport failures and refusals propagate. */
async function readDocument(
  url: URL,
  policy: FetchPolicy,
  options: { maxBytes: number; now: Date; isAllowed?: (u: string) => boolean | undefined },
  beforeBody?: (finalUrl: URL) => Promise<void>,
): Promise<Fetched> {
  const response = await safeGet(url, policy, SITEMAP_ACCEPT);
  const body: BodyStats = { compressed: false, wireBytes: 0, bytes: 0, truncated: false, decompressError: null };
  const facts: DocumentFacts = {
    status: response.status,
    redirects: response.redirects,
    elapsedMs: response.elapsedMs,
    contentType: String(response.headers["content-type"] ?? ""),
    body,
    findings: null,
    finalUrl: response.url,
  };
  if (beforeBody) await beforeBody(response.url);
  if (response.status !== 200) {
    response.body.destroy();
    return { facts };
  }
  const reader = new SitemapDocumentReader({
    documentUrl: response.url,
    now: options.now,
    isAllowed: options.isAllowed,
    maxChildren: LIMITS.maxChildren,
    maxUrls: LIMITS.maxUrls,
  });
  for await (const chunk of readBody(response, { maxBytes: options.maxBytes }, body, policy.signal)) {
    await readInSlices(reader, chunk, policy.signal, response.url);
    // A broken document tells nothing more: stop downloading it.
    if (!reader.healthy) break;
  }
  reader.end(!body.truncated && !body.decompressError);
  facts.findings = reader.findings;
  return { facts };
}

/**
 * Bytes parsed between two turns of the event loop. Small, because each URL in them is also
 * matched against robots.txt (at most MAX_WILDCARD_RULE_CHARS × the slice's length of work).
 */
const PARSE_SLICE_BYTES = 4 * 1024;

/**
 * Parsing runs on the server's only thread: it is fed in slices with a turn of the event loop
 * between them, so other visitors are answered meanwhile and the audit's deadline fires in wall
 * time, whatever the document (decision 200).
 */
async function readInSlices(reader: SitemapDocumentReader, chunk: Uint8Array, signal: AbortSignal, url: URL) {
  for (let start = 0; start < chunk.length && reader.healthy; start += PARSE_SLICE_BYTES) {
    reader.write(chunk.subarray(start, start + PARSE_SLICE_BYTES));
    await setImmediate();
    if (signal.aborted) throw new AuditFetchError("timeout", url.href);
  }
}

function failureMessage(error: unknown) {
  if (error instanceof AuditRefusal) return { key: `refusal.${error.reason}` };
  if (error instanceof AuditFetchError) return { key: `failure.${error.reason}` };
  return { key: "failure.network" };
}

/**
 * Audits a sitemap (or a sitemap index and up to 50 of its children). Throws AuditRefusal for a URL
 * it will not fetch and AuditFetchError when the sitemap itself cannot be fetched; everything else,
 * children's failures included, is in the report.
 */
export async function auditSitemap(rawUrl: string, www: boolean, options: AuditOptions): Promise<AuditReport> {
  const asked = parseAuditUrl(rawUrl);
  const now = options.now ?? new Date();
  const maxBytes = options.maxBytes ?? LIMITS.maxBytes;
  const deadline = AbortSignal.timeout(options.timeoutMs ?? AUDIT_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  const policy: FetchPolicy = {
    allowedHosts: options.allowedHosts,
    connectTimeoutMs: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    maxRedirects: 5,
    signal,
    userAgent: options.userAgent ?? "ParrainlySitemapAudit/1.0",
  };

  let robots: Awaited<ReturnType<typeof fetchRobots>> | null = null;
  const isAllowed = (u: string) => robots?.robot?.isAllowed(u, CRAWLER);
  // robots.txt of the host the sitemap is finally served from, read before the sitemap's body so
  // each listed URL can be checked against it as it streams by.
  const root = await readDocument(asked, policy, { maxBytes, now, isAllowed }, async (finalUrl) => {
    robots = await fetchRobots(finalUrl.origin, policy);
    if (robots.kind === "ok" && robots.robot) {
      robots.allowed = robots.robot.isAllowed(finalUrl.href, CRAWLER) !== false;
      robots.line = robots.robot.getMatchingLineNumber(finalUrl.href, CRAWLER);
    }
  });
  const facts = root.facts;
  const checks: CheckResult[] = documentChecks(facts);

  const children: ChildSummary[] = [];
  const findings = facts.findings;
  if (findings?.root?.kind === "sitemapindex") {
    for (const childUrl of findings.children) {
      if (signal.aborted) {
        children.push({ url: childUrl, status: "error", urls: 0, failing: [], failure: { key: "failure.timeout" } });
        continue;
      }
      children.push(await auditChild(childUrl, policy, { maxBytes, now, isAllowed }));
    }
    const index = checks.findIndex((c) => c.id === "sitemap-index");
    const childStatus = worst(children.map((c) => c.status));
    const capped = findings.entries > LIMITS.maxChildren;
    const failing = children.filter((c) => c.status !== "success").length;
    checks[index] = {
      id: "sitemap-index",
      status: worst([childStatus, capped ? "warning" : "success"]),
      message: {
        key: capped ? "sitemap-index.capped" : "sitemap-index.ok",
        values: { count: findings.entries, audited: children.length, failing, max: LIMITS.maxChildren },
      },
    };
  }

  const asRobots = (robots ?? { kind: "unavailable", url: `${facts.finalUrl.origin}/robots.txt`, status: null }) as RobotsOutcome;
  checks.push(...robotsChecks(asRobots, [asked.href, facts.finalUrl.href], facts.status === 200 ? findings : null));
  checks.push(wwwCheck(www, asked, facts.finalUrl));
  checks.sort((a, b) => CHECK_IDS.indexOf(a.id) - CHECK_IDS.indexOf(b.id));
  return { url: asked.href, finalUrl: facts.finalUrl.href, www, status: overall(checks), checks, children };
}

async function auditChild(
  childUrl: string,
  policy: FetchPolicy,
  options: { maxBytes: number; now: Date; isAllowed: (u: string) => boolean | undefined },
): Promise<ChildSummary> {
  try {
    const url = parseAuditUrl(childUrl);
    const { facts } = await readDocument(url, policy, options);
    const checks = documentChecks(facts);
    if (facts.findings?.root?.kind === "sitemapindex") {
      // An index may only list sitemaps, not other indexes.
      checks.push({ id: "sitemap-index", status: "error", message: { key: "sitemap-index.nested" } });
    }
    const failing = [...new Set(checks.filter((c) => c.status === "warning" || c.status === "error").map((c) => c.id))];
    return { url: childUrl, status: overall(checks), urls: facts.findings?.entries ?? 0, failing };
  } catch (error) {
    if (!(error instanceof AuditRefusal) && !(error instanceof AuditFetchError)) throw error;
    return { url: childUrl, status: "error", urls: 0, failing: [], failure: failureMessage(error) };
  }
}

// ---------- at most two audits at once ----------

const MAX_RUNNING = 2;
const MAX_WAITING = 8;
// One copy of this module per process (the server reaches the app only through the Remix build).
const state: { running: number; waiting: Array<() => void> } = { running: 0, waiting: [] };

/** Too many audits queued already: the caller answers 503. */
export class AuditBusy extends Error {}

/** Runs `task` when one of the two audit slots is free (waits in a short queue, else AuditBusy). */
export async function withAuditSlot<T>(task: () => Promise<T>): Promise<T> {
  if (state.running >= MAX_RUNNING) {
    if (state.waiting.length >= MAX_WAITING) throw new AuditBusy("audit queue full");
    await new Promise<void>((resolve) => state.waiting.push(resolve));
  } else state.running++;
  try {
    return await task();
  } finally {
    const next = state.waiting.shift();
    // The slot passes straight to the next in line; otherwise it is freed.
    if (next) next();
    else state.running--;
  }
}

export { AuditFetchError, AuditRefusal };
