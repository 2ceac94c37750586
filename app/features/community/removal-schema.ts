import { z } from "zod";

/** The removal form (decision 324); messages are keys of the `legal` namespace. */
export const REMOVAL_DETAILS_MIN = 10;
export const REMOVAL_DETAILS_MAX = 2000;

export const removalSchema = z.object({
  details: z
    .string({ required_error: "privacy.removal.errors.tooShort" })
    .trim()
    .min(REMOVAL_DETAILS_MIN, "privacy.removal.errors.tooShort")
    .max(REMOVAL_DETAILS_MAX, "privacy.removal.errors.tooLong"),
});

/** A few requests an hour per address: a stranger cannot flood the admin's queue. */
export const REMOVAL_RATE_LIMIT = { name: "removal-request", max: 5, windowMs: 60 * 60_000 } as const;
