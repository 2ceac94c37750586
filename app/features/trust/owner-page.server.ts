import type { AppLoadContext } from "@remix-run/node";
import { getCodeByOwnerHash } from "~db/repositories/code-owners.server";
import { hitRateLimit, isRateLimited, tooManyRequests } from "~/utils/rate-limit.server";
import { notFound } from "~/utils/responses.server";
import { addressKeyOf } from "~/utils/client-address.server";
import { OWNER_GUESS_RATE_LIMIT } from "./limits";
import { hashOwnerToken, isOwnerTokenShape } from "./owner-token.server";

export type OwnedCode = NonNullable<Awaited<ReturnType<typeof getCodeByOwnerHash>>>;

/**
 * The code behind a private link. A wrong token is the site's plain 404 (it tells nothing about
 * which codes exist) and counts against the address; too many wrong ones and every token is
 * refused with 429 for a while, so guessing gets nowhere (on top of 2^256 possibilities).
 */
export async function requireOwnedCode(request: Request, context: AppLoadContext, token: string | undefined): Promise<OwnedCode> {
  const key = addressKeyOf(context);
  if (await isRateLimited(OWNER_GUESS_RATE_LIMIT, key)) {
    const result = await hitRateLimit(OWNER_GUESS_RATE_LIMIT, key);
    throw await tooManyRequests(request, result.ok ? 60 : result.retryAfterSeconds);
  }
  const code = isOwnerTokenShape(token) ? await getCodeByOwnerHash(hashOwnerToken(token)) : undefined;
  if (!code) {
    await hitRateLimit(OWNER_GUESS_RATE_LIMIT, key);
    // The same page as any unknown address.
    throw await notFound(request, "notFound.message");
  }
  return code;
}

export type OwnedCodeStatus =
  "active" | "capped" | "expired" | "platformInactive" | "pausedByOwner" | "pausedByReports" | "deactivated";

export function ownedCodeStatus(code: OwnedCode, now = new Date()): OwnedCodeStatus {
  if (code.is_active !== 1) {
    if (code.paused_reason === "owner") return "pausedByOwner";
    if (code.paused_reason === "reports") return "pausedByReports";
    return "deactivated";
  }
  if (code.capped_until && code.capped_until > now.toISOString()) return "capped";
  if (code.platform_active !== 1) return "platformInactive";
  if (code.is_permanent !== 1 && code.expires_at && code.expires_at <= now.toISOString()) return "expired";
  return "active";
}
