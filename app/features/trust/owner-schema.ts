import { z } from "zod";

/** The owner page's forms: pause, resume, and delete (which asks for a ticked confirmation). */
export const ownerActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("pause") }),
  z.object({ intent: z.literal("resume") }),
  z.object({
    intent: z.literal("delete"),
    confirm: z.literal("yes", { errorMap: () => ({ message: "owner.errors.confirmDelete" }) }),
  }),
]);
