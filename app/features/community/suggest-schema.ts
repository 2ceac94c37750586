import { z } from "zod";
import { parseHttpUrl } from "~db/platform-links";
import { MAX_ROW_ID } from "~/utils/row-id";

/** The suggestion form (action and component share it). Messages are `suggest:` translation keys. */
export const suggestSchema = z.object({
  intent: z.literal("suggest"),
  name: z
    .string({ required_error: "errors.nameRequired" })
    .trim()
    .min(1, "errors.nameRequired")
    .max(100, "errors.nameTooLong")
    // A name made only of symbols normalizes to nothing and could not be compared.
    .refine((v) => /[\p{L}\p{N}]/u.test(v), "errors.nameRequired"),
  description: z.string().trim().max(1000, "errors.descriptionTooLong").optional(),
  website_url: z
    .string()
    .trim()
    .max(2048, "errors.websiteInvalid")
    .refine((v) => parseHttpUrl(v) !== null, "errors.websiteInvalid")
    .optional(),
});

export const voteSchema = z.object({
  intent: z.literal("vote"),
  suggestion_id: z.coerce.number().int().positive().max(MAX_ROW_ID),
});

/** Votes one subscriber (an IPv6 /48, an IPv4 address) may give one suggestion: room for a shared household, not for cookie-clearing. */
export const MAX_VOTES_PER_ADDRESS = 3;
export const POPULAR_ABOVE_VOTES = 5;
export const NEW_FOR_MS = 86_400_000;
