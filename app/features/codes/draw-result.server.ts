import { getDrawResult } from "~db/repositories/codes.server";
import { drawTrustView } from "~/features/trust/trust-view.server";
import { invariantResponse } from "~/utils/responses.server";
import { readDrawToken } from "./draw-token.server";

/**
 * What a result page (`?draw=` on /{slug}/get-code or /random) shows: the drawn code and the trust
 * view. A forged or unknown token, or one from another platform's draw, is a 404 with `notFound`.
 */
export async function loadDrawResult(token: string, notFound: string, platformId?: number) {
  const requestId = readDrawToken(token);
  const result = requestId ? await getDrawResult(requestId) : null;
  invariantResponse(result && (platformId === undefined || result.platformId === platformId), notFound, 404);
  return {
    available: 0,
    report: await drawTrustView(result, token),
    result: {
      code: result.code,
      referralUrl: result.referralUrl,
      platformName: result.platformName,
      platformSlug: result.platformSlug,
    },
  };
}
