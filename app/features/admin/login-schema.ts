import { z } from "zod";

/** The sign-in form, checked in the browser (Conform) and again by the action. Messages are admin keys. */
export const loginSchema = z.object({
  email: z
    .string({ required_error: "login.errors.required" })
    .trim()
    .min(1, "login.errors.required")
    .max(254, "login.errors.invalid"),
  password: z
    .string({ required_error: "login.errors.required" })
    .min(1, "login.errors.required")
    .max(1024, "login.errors.invalid"),
  redirectTo: z.string().optional(),
});
