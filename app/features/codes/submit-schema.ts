import { z } from "zod";
import { MAX_INPUT_LENGTH } from "~db/platform-links";
import { MAX_DELETION_REASON_LENGTH } from "./limits";

/** Messages are keys of the `submit` namespace, rendered with t() in the visitor's language. */
const platformAndCode = {
  platform: z
    .string({ required_error: "errors.platformRequired" })
    .trim()
    .min(1, "errors.platformRequired")
    .max(60, "errors.platformNotFound"),
  code: z
    .string({ required_error: "errors.codeRequired" })
    .trim()
    .min(1, "errors.codeRequired")
    .max(MAX_INPUT_LENGTH, "errors.code.inputTooLong"),
};

export const submitSchema = z.object({ intent: z.literal("submit"), ...platformAndCode });

/** "Yes" in the duplicate step: the page asks for the optional reason next (nothing written). */
export const deletionReasonSchema = z.object({ intent: z.literal("deletion-reason"), ...platformAndCode });

export const deletionRequestSchema = z.object({
  intent: z.literal("request-deletion"),
  ...platformAndCode,
  reason: z.string().trim().max(MAX_DELETION_REASON_LENGTH, "errors.reasonTooLong").optional(),
});
