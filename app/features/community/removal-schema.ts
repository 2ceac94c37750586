import { z } from "zod";
import { REMOVAL_DETAILS_MAX, REMOVAL_DETAILS_MIN } from "./removal-limits";

/** The removal form, checked on the server only (decision 324); messages are keys of the `legal` namespace. */
export const removalSchema = z.object({
  details: z
    .string({ required_error: "privacy.removal.errors.tooShort" })
    .trim()
    .min(REMOVAL_DETAILS_MIN, "privacy.removal.errors.tooShort")
    .max(REMOVAL_DETAILS_MAX, "privacy.removal.errors.tooLong"),
});
