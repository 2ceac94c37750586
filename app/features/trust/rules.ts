/**
 * The trust loop's thresholds, shared by the database rule and the pages that explain it.
 * A code is paused automatically when, among its last `window` answers (since an admin last
 * restored it), the failed ones come from at least `minFailedAddresses` different addresses AND
 * make at least `minFailedPercent` of those answers. docs/decisions/090 says why these numbers.
 */
export const PAUSE_RULE = { window: 10, minFailedAddresses: 3, minFailedPercent: 60 } as const;

/** The public figure ("92 % of 140 answers worked") covers this many days, and shows from this many answers. */
export const ANSWER_STATS = { days: 90, minAnswers: 5 } as const;
