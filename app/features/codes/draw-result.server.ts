import { getDrawResult } from "~db/repositories/codes.server";
import { loadOfferSection } from "~/features/offer/offer.server";
import { drawTrustView } from "~/features/trust/trust-view.server";
import { invariantResponse } from "~/utils/responses.server";
import { readDrawToken } from "~/features/trust/draw-token.server";

/**
 * What a result page (`?draw=` on /{slug}/get-code or /random) shows: the drawn code and the trust
 * view. A forged or unknown token, or one from another platform's draw, is a 404 with `notFound`.
 */
export async function loadDrawResult(token: string, notFound: string, language: string, platformId?: number) {
  const requestId = readDrawToken(token);
  const result = requestId ? await getDrawResult(requestId) : null;
  invariantResponse(result && (platformId === undefined || result.platformId === platformId), notFound, 404);
  const [report, claim] = await Promise.all([
    drawTrustView(result, token, language),
    loadOfferSection(result.platformId, language),
  ]);
  return {
    available: 0,
    report,
    // How to claim the drawn code's reward (its platform's offer), on every result page.
    claim,
    result: {
      code: result.code,
      referralUrl: result.referralUrl,
      platformName: result.platformName,
      platformSlug: result.platformSlug,
    },
  };
}
