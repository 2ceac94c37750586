import { z } from "zod";

/** The "did this code work?" form: two buttons, each sending its outcome, plus the page's draw token. */
export const reportSchema = z.object({
  intent: z.literal("report"),
  outcome: z.enum(["worked", "failed"], { message: "report.errors.invalid" }),
  draw: z.string({ required_error: "report.errors.badToken" }).max(64, "report.errors.badToken"),
});
