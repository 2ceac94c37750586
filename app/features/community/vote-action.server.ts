import { data, type AppLoadContext } from "@remix-run/node";
import { castVote } from "~db/repositories/suggestions.server";
import { addressKeyOf } from "~/utils/client-address.server";
import { runWrite } from "~db/availability.server";
import { hitRateLimit, tooManyRequests } from "~/utils/rate-limit.server";
import { redirectWithToast } from "~/utils/toast.server";
import { voterAddress, type ClientIdentity } from "./client-identity.server";
import { MAX_VOTES_PER_ADDRESS, voteSchema } from "./suggest-schema";
import { VOTE_REFUSAL_KEYS } from "./vote-messages";

const VOTE_LIMIT = { name: "suggest-vote", max: 120, windowMs: 10 * 60_000 };

/**
 * `intent=vote` on /suggest-platform: one vote per visitor (cookie `client_id` and a pseudonym of
 * the address), a cap per address, a limit per address key. Counted: 303 back to the suggestion with
 * a toast; refused: the reason next to the suggestion (`vote`), nothing written.
 */
export async function answerVote(
  request: Request,
  context: AppLoadContext,
  form: FormData,
  identity: ClientIdentity,
  headers: Headers,
) {
  const parsed = voteSchema.safeParse({ intent: "vote", suggestion_id: form.get("suggestion_id") });
  if (!parsed.success) return data({ vote: { suggestionId: null, key: "vote.notFound" } }, { status: 404, headers });
  const limit = await hitRateLimit(VOTE_LIMIT, addressKeyOf(context));
  if (!limit.ok) throw await tooManyRequests(request, limit.retryAfterSeconds);
  const suggestionId = parsed.data.suggestion_id;
  const vote = await runWrite(
    "vote",
    async () =>
      castVote({
        suggestionId,
        clientFingerprint: identity.fingerprint,
        ipHash: await voterAddress(context),
        maxVotesPerAddress: MAX_VOTES_PER_ADDRESS,
      }),
    "result",
  );
  if (!vote.ok) {
    headers.set("Retry-After", vote.headers["Retry-After"]!);
    return data({ vote: { suggestionId, key: "vote.failed" } }, { status: 503, headers });
  }
  const result = vote.value;
  if (result === "voted") {
    return redirectWithToast(
      `/suggest-platform#suggestion-${suggestionId}`,
      { type: "success", key: "suggest:toast.voted" },
      { headers },
    );
  }
  const status = result === "not-found" ? 404 : result === "address-cap" ? 429 : 409;
  return data({ vote: { suggestionId, key: VOTE_REFUSAL_KEYS[result] } }, { status, headers });
}
