import { z } from "zod";
import { PROVIDERS } from "./types";
import { MAX_ROW_ID } from "~/utils/row-id";

export const MESSAGE_MAX = 4000;

/** The composer's form, shared by the action (parseWithZod) and the page (constraints, JS checks). */
export const sendSchema = z.object({
  intent: z.literal("send"),
  message: z.string({ required_error: "errors.empty" }).trim().min(1, "errors.empty").max(MESSAGE_MAX, "errors.tooLong"),
  provider: z.enum(PROVIDERS, { errorMap: () => ({ message: "errors.provider" }) }),
  // Only a forged form sends anything but a conversation's id: it reads as an unknown conversation.
  conversation_id: z.coerce
    .number({ errorMap: () => ({ message: "errors.notFound" }) })
    .int("errors.notFound")
    .positive("errors.notFound")
    .optional(),
});

export const deleteSchema = z.object({
  intent: z.literal("delete-conversation"),
  conversation_id: z.coerce.number().int().positive().max(MAX_ROW_ID),
});
