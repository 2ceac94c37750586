/** Answers per address: far more than one person draws in an hour, few enough to stop a script. */
export const REPORT_RATE_LIMIT = { name: "report", max: 30, windowMs: 60 * 60_000 } as const;

/** Wrong owner tokens per address before /my-code refuses for a while (a right token never counts). */
export const OWNER_GUESS_RATE_LIMIT = { name: "owner-guess", max: 20, windowMs: 15 * 60_000 } as const;

/** Owner page writes per address (pause, resume, delete). */
export const OWNER_WRITE_RATE_LIMIT = { name: "owner-write", max: 30, windowMs: 10 * 60_000 } as const;
