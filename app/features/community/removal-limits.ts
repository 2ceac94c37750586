/** The removal form's bounds (decision 324): no zod here, the page's component reads them. */
export const REMOVAL_DETAILS_MIN = 10;
export const REMOVAL_DETAILS_MAX = 2000;

/** A few requests an hour per address: a stranger cannot flood the admin's queue. */
export const REMOVAL_RATE_LIMIT = { name: "removal-request", max: 5, windowMs: 60 * 60_000 } as const;
