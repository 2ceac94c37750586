import type { VoteResult } from "~db/repositories/suggestions.server";

/** Translation keys (suggest namespace) for a refused vote. */
export const VOTE_REFUSAL_KEYS: Record<Exclude<VoteResult, "voted">, string> = {
  "already-voted": "vote.alreadyVoted",
  "address-cap": "vote.addressCap",
  "not-found": "vote.notFound",
};
