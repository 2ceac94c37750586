import { z } from "zod";

/** The owner page's forms: pause, resume, and delete (which asks first: `confirm=yes`, read by the action). */
export const ownerActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("pause") }),
  z.object({ intent: z.literal("resume") }),
  z.object({ intent: z.literal("delete") }),
]);
