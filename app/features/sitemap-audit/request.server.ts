import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { getT } from "~/i18n/i18next.server";
import { addressKeyOf } from "~/utils/client-address.server";
import { getEnv } from "~/utils/env.server";
import { hitRateLimit, type RateLimit } from "~/utils/rate-limit.server";
import { hostKey, parseAllowedHosts } from "./address-rules";
import { AuditBusy, AuditFetchError, AuditRefusal, auditSitemap, withAuditSlot } from "./audit.server";
import type { AuditReport, Message } from "./checks";

/** Audits per visitor address, and per audited host (so the audit cannot hammer a site). */
const AUDIT_LIMIT_PER_CLIENT: RateLimit = { name: "sitemap-audit-client", max: 10, windowMs: 60_000 };
const AUDIT_LIMIT_PER_TARGET: RateLimit = { name: "sitemap-audit-target", max: 20, windowMs: 60_000 };

/** The GET form: `url`, and `www` (a checkbox: present means on). */
const auditQuerySchema = z.object({
  url: z.string().trim().max(2048).optional(),
  www: z.string().optional(),
});

export interface AuditQuery {
  /** The URL to audit; empty: show the form only. */
  url: string;
  www: boolean;
}

export function readAuditQuery(request: Request): AuditQuery {
  const params = new URL(request.url).searchParams;
  const parsed = auditQuerySchema.safeParse({ url: params.get("url") ?? undefined, www: params.get("www") ?? undefined });
  const url = parsed.success ? (parsed.data.url ?? "") : (params.get("url") ?? "").slice(0, 2048);
  // The checkbox is on by default; once the form is sent, an unchecked box is simply absent.
  const www = url ? ["on", "1", "true", "yes"].includes((params.get("www") ?? "").toLowerCase()) : true;
  return { url, www };
}

export type AuditOutcome =
  | { kind: "form" }
  | { kind: "report"; report: AuditReport }
  | { kind: "refused"; reason: string }
  | { kind: "failed"; reason: string }
  | { kind: "busy" }
  | { kind: "limited"; retryAfterSeconds: number };

const REFUSAL_STATUS: Record<string, number> = { "private-address": 403, "private-name": 403 };

export function outcomeStatus(outcome: AuditOutcome): number {
  switch (outcome.kind) {
    case "refused":
      return REFUSAL_STATUS[outcome.reason] ?? 400;
    case "failed":
      return 502;
    case "busy":
      return 503;
    case "limited":
      return 429;
    default:
      return 200;
  }
}

/** Runs the audit a request asks for (rate limits, the two-slot queue), never throwing. */
export async function runAuditRequest(request: Request, context: AppLoadContext, query: AuditQuery): Promise<AuditOutcome> {
  if (!query.url) return { kind: "form" };
  const client = await hitRateLimit(AUDIT_LIMIT_PER_CLIENT, addressKeyOf(context));
  if (!client.ok) return { kind: "limited", retryAfterSeconds: client.retryAfterSeconds };
  let target = "";
  try {
    target = hostKey(new URL(query.url));
  } catch {
    // parseAuditUrl refuses it below
  }
  if (target) {
    const perTarget = await hitRateLimit(AUDIT_LIMIT_PER_TARGET, target);
    if (!perTarget.ok) return { kind: "limited", retryAfterSeconds: perTarget.retryAfterSeconds };
  }
  const env = getEnv();
  // The audit waits seconds on another site, bounded by its own slots: it holds no render place
  // meanwhile (an audit of our own sitemap would wait behind itself).
  context.leaveAdmission?.();
  try {
    const report = await withAuditSlot(() =>
      auditSitemap(query.url, query.www, {
        allowedHosts: parseAllowedHosts(env.AUDIT_ALLOWED_HOSTS),
        userAgent: `ParrainlySitemapAudit/1.0 (+${env.SITE_URL}/sitemap-audit)`,
        signal: request.signal,
      }),
    );
    return { kind: "report", report };
  } catch (error) {
    if (error instanceof AuditRefusal) return { kind: "refused", reason: error.reason };
    if (error instanceof AuditFetchError) return { kind: "failed", reason: error.reason };
    if (error instanceof AuditBusy) return { kind: "busy" };
    throw error;
  }
}

/** `t` of the audit namespace, with keys built at run time (check ids, reasons). */
type AuditT = (key: string, values?: Message["values"]) => string;
const text = (t: AuditT, message: Message, prefix = "") => t(`${prefix}${message.key}`, message.values);

/** The report with every message in the reader's language (the JSON answer). */
function reportToJson(report: AuditReport, t: AuditT) {
  return {
    url: report.url,
    finalUrl: report.finalUrl,
    www: report.www,
    status: report.status,
    checks: report.checks.map((c) => ({
      id: c.id,
      status: c.status,
      name: t(`names.${c.id}`),
      message: text(t, c.message, "checks."),
      examples: c.examples ?? [],
    })),
    children: report.children.map((c) => ({
      url: c.url,
      status: c.status,
      urls: c.urls,
      failing: c.failing,
      ...(c.failure ? { failure: text(t, c.failure) } : {}),
    })),
  };
}

/** The JSON answer for CI: the report, or `{ error, reason, message }` with the same status as the page. */
export async function auditJsonResponse(request: Request, context: AppLoadContext): Promise<Response> {
  const t = (await getT(request, "audit")) as unknown as AuditT;
  const query = readAuditQuery(request);
  const outcome = await runAuditRequest(request, context, query);
  const status = outcomeStatus(outcome);
  const headers: Record<string, string> = {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "no-store",
    Vary: "Accept, Accept-Language, Cookie",
  };
  let body: unknown;
  switch (outcome.kind) {
    case "form":
      body = { error: "missing-url", message: t("form.url") };
      return new Response(JSON.stringify(body), { status: 400, headers });
    case "report":
      body = reportToJson(outcome.report, t);
      break;
    case "refused":
      body = { error: "refused", reason: outcome.reason, message: t(`refusal.${outcome.reason}`) };
      break;
    case "failed":
      body = {
        error: "fetch-failed",
        reason: outcome.reason,
        message: `${t("failure.heading")}: ${t(`failure.${outcome.reason}`)}`,
      };
      break;
    case "busy":
      headers["Retry-After"] = "10";
      body = { error: "busy", message: t("busy") };
      break;
    case "limited":
      headers["Retry-After"] = String(outcome.retryAfterSeconds);
      body = { error: "rate-limited", retryAfterSeconds: outcome.retryAfterSeconds };
      break;
  }
  return new Response(JSON.stringify(body, null, 2), { status, headers });
}
