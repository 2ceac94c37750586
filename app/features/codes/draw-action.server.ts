import { runWrite } from "~db/availability.server";
import { drawReferralCode, drawReferralCodeBySlug } from "~db/repositories/draw.server";
import { drawToken } from "~/features/trust/draw-token.server";

/** The page a draw form posts to: `/{slug}/get-code`, or `/random` (slug null). */
function drawPagePath(slug: string | null): string {
  return slug === null ? "/random" : `/${slug}/get-code`;
}

/**
 * The draw behind a draw form: draws for the active platform with this slug, or
 * across every active platform (null), and returns the address of the signed result page. Null
 * when nothing was drawn, which writes nothing; the page then says why.
 * Shared by the route actions and the server's draw endpoint (server/draw-endpoint.ts). Throws
 * DatabaseUnavailable when the database refuses the write for now (answered 503, never retried).
 */
export async function drawForPage(slug: string | null): Promise<string | null> {
  const drawn = await runWrite("draw", () => (slug === null ? drawReferralCode(null) : drawReferralCodeBySlug(slug)));
  return drawn ? `${drawPagePath(slug)}?draw=${drawToken(drawn.requestId)}` : null;
}
