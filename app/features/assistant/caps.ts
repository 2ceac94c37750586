/**
 * The caps of one exchange (decision 326), shared with the page, which names them when one ended
 * an answer. Provider calls: the last one may not call tools. Tool calls and the characters of
 * their results, all rounds together: once one is reached, the tools still asked for are answered
 * "not run" and the model gets one last call, without tools, to answer with what it has.
 * Proposals: a few cards per answer. Tokens: reserved before each call, against this cap and the
 * day's budget (the database's counter, shared by every process).
 */
export const EXCHANGE_CAPS = {
  rounds: 6,
  toolCalls: 10,
  resultChars: 40_000,
  proposals: 3,
  tokens: 80_000,
} as const;

/** How long a card stays usable after its answer; a newer answer closes it sooner (decision 327). */
export const PROPOSAL_MINUTES = 15;
