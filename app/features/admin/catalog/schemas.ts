import { z } from "zod";
import { GRADIENTS } from "~db/seed-data";
import { hostsAreValid, templateIsValid } from "./rules";
import { graphemeCount, MAX_SLUG_LENGTH, RESERVED_SLUGS, SLUG_PATTERN } from "./slug";

/**
 * One zod schema per admin form, shared by the action (Conform parseWithZod) and the page.
 * Messages are keys of the admin-catalog namespace, translated when shown.
 */

export const DEFAULT_CODE_PATTERN = "^[A-Z0-9]{8,}$";
export const DEFAULT_EMOJI = "🌐";
export const DEFAULT_DISPLAY_ORDER = 10;
export const DEFAULT_GRADIENT_ID = "pink-violet";
const MAX_EXPIRY_DAYS = 3650;

const REQUIRED = "errors.required";
const required = (max: number) => z.string({ required_error: REQUIRED }).trim().min(1, REQUIRED).max(max, "errors.tooLong");
const optionalText = (max: number) => z.string().trim().max(max, "errors.tooLong").optional();
const checkbox = z
  .string()
  .optional()
  .transform((v) => v === "on" || v === "1" || v === "true");

const idSchema = z.coerce.number({ invalid_type_error: "errors.notFound" }).int("errors.notFound").positive("errors.notFound");

function patternCompiles(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

const slugField = z
  .string()
  .trim()
  .toLowerCase()
  .max(MAX_SLUG_LENGTH, "errors.tooLong")
  .regex(SLUG_PATTERN, "platformForm.errors.slugInvalid")
  .refine((s) => !RESERVED_SLUGS.has(s), "platformForm.errors.slugReserved");

const codePatternField = required(200).refine(patternCompiles, "platformForm.errors.patternInvalid");
const hostsField = optionalText(500).refine((v) => hostsAreValid(v), "platformForm.errors.hostsInvalid");
const templateField = optionalText(500).refine((v) => templateIsValid(v), "platformForm.errors.templateInvalid");

// ---------- codes ----------
export const expirySchema = z.object({
  intent: z.literal("set-expiry"),
  id: idSchema,
  days: z
    .string({ required_error: "codes.errors.days" })
    .trim()
    .regex(/^\d+$/, "codes.errors.days")
    .transform(Number)
    .refine((n) => n <= MAX_EXPIRY_DAYS, "codes.errors.days"),
});

export const codeUpdateSchema = z.object({
  intent: z.literal("update"),
  id: idSchema,
  code: required(2048),
  referral_url: optionalText(2048),
});

// ---------- platforms ----------
export const platformUpdateSchema = z.object({
  intent: z.literal("update"),
  id: idSchema,
  name: required(100),
  slug: z.string({ required_error: REQUIRED }).pipe(slugField),
  code_pattern: codePatternField,
  description: optionalText(1000),
  hosts: hostsField,
  referral_url_template: templateField,
});

const GRADIENT_IDS = GRADIENTS.map((g) => g.id) as [string, ...string[]];

/**
 * Create a platform. The slug may be left empty: the server derives it from the name.
 * From a suggestion, the description may stay empty (suggestions have none sometimes).
 */
export const platformCreateSchema = z
  .object({
    intent: z.literal("create"),
    suggestion_id: idSchema.optional(),
    name: required(100),
    slug: slugField.optional(),
    description: optionalText(1000),
    code_pattern: codePatternField,
    emoji: z
      .string()
      .trim()
      .refine((v) => graphemeCount(v) <= 4, "platformForm.errors.emojiTooLong")
      .optional(),
    gradient: z
      .enum(GRADIENT_IDS, { errorMap: () => ({ message: "platformForm.errors.gradient" }) })
      .default(DEFAULT_GRADIENT_ID),
    display_order: z
      .string()
      .trim()
      .regex(/^\d{1,6}$/, "platformForm.errors.displayOrder")
      .transform(Number)
      .optional(),
    is_active: checkbox,
    show_in_homepage: checkbox,
    show_in_partnerships: checkbox,
    hosts: hostsField,
    referral_url_template: templateField,
  })
  .superRefine((value, ctx) => {
    if (!value.suggestion_id && !value.description) ctx.addIssue({ code: "custom", path: ["description"], message: REQUIRED });
  });

export const LOGO_VARIANTS = ["light", "dark"] as const;
export const logoVariantSchema = z.enum(LOGO_VARIANTS, { errorMap: () => ({ message: "platforms.errors.variant" }) });
