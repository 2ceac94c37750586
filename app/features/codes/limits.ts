/** Shared by the deletion-request form (client) and its repository (server). */
export const MAX_DELETION_REASON_LENGTH = 1000;

/** Submissions (codes and deletion requests) per address: generous for people, tight for scripts. */
export const SUBMIT_RATE_LIMIT = { name: "submit", max: 30, windowMs: 10 * 60_000 } as const;
