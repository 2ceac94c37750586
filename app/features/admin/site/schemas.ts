import { z } from "zod";
import { parseHttpUrl } from "~db/platform-links";
import { isPrintableName } from "~/features/game/schemas";
import { SETTING_KEYS, type SettingKey } from "~db/seed-data";

/**
 * One zod schema per form, shared by the actions (Conform parseWithZod) and the components
 * (getZodConstraint). Messages are translation keys of the admin-site namespace.
 */

const isHttpUrl = (value: string) => parseHttpUrl(value) !== null;

export const DISPLAY_MODES = ["logo", "name", "both"] as const;

export const partnershipSchema = z.object({
  name: z
    .string({ required_error: "partnerships.errors.required" })
    .trim()
    .min(1, "partnerships.errors.required")
    .max(100, "partnerships.errors.nameTooLong"),
  url: z
    .string({ required_error: "partnerships.errors.required" })
    .trim()
    .min(1, "partnerships.errors.required")
    .max(2048, "partnerships.errors.urlTooLong")
    .refine(isHttpUrl, "partnerships.errors.url"),
  logo_url: z
    .string()
    .trim()
    .max(2048, "partnerships.errors.urlTooLong")
    .refine(isHttpUrl, "partnerships.errors.logoUrl")
    .optional(),
  description: z.string().trim().max(500, "partnerships.errors.descriptionTooLong").optional(),
  description_en: z.string().trim().max(500, "partnerships.errors.descriptionTooLong").optional(),
  description_de: z.string().trim().max(500, "partnerships.errors.descriptionTooLong").optional(),
  description_es: z.string().trim().max(500, "partnerships.errors.descriptionTooLong").optional(),
  display_mode: z.enum(DISPLAY_MODES, { errorMap: () => ({ message: "partnerships.errors.displayMode" }) }).default("both"),
  is_active: z.boolean().default(false),
});
export type PartnershipForm = z.infer<typeof partnershipSchema>;

export const PLAYER_NAME_MAX = 20;
const SCORE_MAX = 1_000_000_000;

export const scoreSchema = z.object({
  player_name: z
    .string({ required_error: "scores.errors.playerName" })
    .trim()
    .min(1, "scores.errors.playerName")
    .max(PLAYER_NAME_MAX, "scores.errors.playerName")
    .refine(isPrintableName, "scores.errors.playerNameInvalid"),
  score: z
    .number({ required_error: "scores.errors.score", invalid_type_error: "scores.errors.score" })
    .int("scores.errors.score")
    .min(0, "scores.errors.score")
    .max(SCORE_MAX, "scores.errors.score"),
});

// ---------- settings ----------

export type SettingKind = "text" | "textarea" | "boolean" | "provider" | "url";

interface SettingRule {
  kind: SettingKind;
  max: number;
  /** Shape of a non-empty value (ids pasted from Google's consoles). */
  pattern?: RegExp;
  required?: boolean;
  /** Stored upper-cased (ids are case-insensitive when typed). */
  upper?: boolean;
}

export const AI_PROVIDERS = ["anthropic", "openai"] as const;

export const SETTING_RULES: Record<SettingKey, SettingRule> = {
  gtm_id: { kind: "text", max: 30, pattern: /^GTM-[A-Z0-9]{1,20}$/, upper: true },
  ga4_id: { kind: "text", max: 30, pattern: /^G-[A-Z0-9]{1,20}$/, upper: true },
  adsense_head: { kind: "textarea", max: 10_000 },
  adsense_body: { kind: "textarea", max: 10_000 },
  adsense_account_id: { kind: "text", max: 40, pattern: /^(ca-)?pub-\d{6,24}$/ },
  google_recaptcha_site_key: { kind: "text", max: 100, pattern: /^[A-Za-z0-9_-]{1,100}$/ },
  enable_theme_toggle: { kind: "boolean", max: 5 },
  enable_auto_cleanup: { kind: "boolean", max: 5 },
  default_ai_provider: { kind: "provider", max: 20 },
  ai_daily_token_budget: { kind: "text", max: 10, pattern: /^\d{1,10}$/ },
  price_tracker_name: { kind: "text", max: 60, required: true },
  price_tracker_url: { kind: "url", max: 2048, required: true },
  publisher_name: { kind: "text", max: 200 },
  publisher_email: { kind: "text", max: 254, pattern: /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/ },
  publisher_address: { kind: "textarea", max: 500 },
  host_details: { kind: "textarea", max: 500 },
};

/** The value to store for `key`, or the translation key of what is wrong with it. */
function checkSettingValue(key: SettingKey, raw: string): { ok: true; value: string } | { ok: false; error: string } {
  const rule = SETTING_RULES[key];
  let value = rule.kind === "textarea" ? raw : raw.trim();
  if (rule.upper) value = value.toUpperCase();
  if (value.length > rule.max) return { ok: false, error: "settings.errors.tooLong" };
  switch (rule.kind) {
    case "boolean":
      return value === "true" || value === "false" ? { ok: true, value } : { ok: false, error: "settings.errors.boolean" };
    case "provider":
      return (AI_PROVIDERS as readonly string[]).includes(value)
        ? { ok: true, value }
        : { ok: false, error: "settings.errors.provider" };
    case "url":
      if (!value) return { ok: false, error: "settings.errors.required" };
      return isHttpUrl(value) ? { ok: true, value } : { ok: false, error: "settings.errors.url" };
    default:
      if (!value) return rule.required ? { ok: false, error: "settings.errors.required" } : { ok: true, value };
      return !rule.pattern || rule.pattern.test(value)
        ? { ok: true, value }
        : { ok: false, error: `settings.errors.format.${key}` };
  }
}

export const settingSchema = z
  .object({
    key: z.string({ required_error: "settings.errors.unknownKey" }),
    value: z.string().default(""),
  })
  .superRefine((input, ctx) => {
    if (!(SETTING_KEYS as string[]).includes(input.key)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["key"], message: "settings.errors.unknownKey" });
      return;
    }
    const checked = checkSettingValue(input.key as SettingKey, input.value);
    if (!checked.ok) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["value"], message: checked.error });
  })
  .transform((input) => {
    const checked = checkSettingValue(input.key as SettingKey, input.value);
    return { key: input.key as SettingKey, value: checked.ok ? checked.value : input.value };
  });
