import { z } from "zod";
import { REPORT_REASONS } from "~db/report-rules";

/**
 * The "did this code work?" forms: "worked" is one button; each failure reason is a button of its
 * own form (`outcome=failed` + its `reason`), so one click answers, without JS. A failure without a
 * reason is still accepted (counted like `other`); a reason on a "worked" answer, or an unknown one,
 * is refused.
 */
export const reportSchema = z
  .object({
    intent: z.literal("report"),
    outcome: z.enum(["worked", "failed"], { message: "report.errors.invalid" }),
    reason: z.enum(REPORT_REASONS, { message: "offer:reasons.errors.unknown" }).optional(),
    draw: z.string({ required_error: "report.errors.badToken" }).max(64, "report.errors.badToken"),
  })
  .refine((v) => v.outcome === "failed" || v.reason === undefined, {
    message: "offer:reasons.errors.notForWorked",
    path: ["reason"],
  });
