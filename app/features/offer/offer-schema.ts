import { z } from "zod";
import { OFFER_LANGUAGE_SUFFIXES, OFFER_TEXTS } from "./offer";

/**
 * The admin's offer form (`intent=update-offer`): every text in fr (bare), en, de, es, and the day
 * the offer was last checked. Every field may be empty (an empty field is simply not shown).
 * Messages are keys of the `offer` namespace.
 */
const MAX_TEXT = 600;
const MAX_STEPS = 2000;

const text = (max: number) =>
  z
    .string()
    .max(max, "admin.errors.tooLong")
    .optional()
    // A form posted without JS sends textarea lines as CRLF: stored as plain newlines.
    .transform((v) => v?.replace(/\r\n?/g, "\n").trim() || null);

function isRealDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}

const textFields = Object.fromEntries(
  OFFER_TEXTS.flatMap((name) =>
    OFFER_LANGUAGE_SUFFIXES.map((suffix) => [`${name}${suffix}`, text(name === "offer_steps" ? MAX_STEPS : MAX_TEXT)]),
  ),
) as Record<`${(typeof OFFER_TEXTS)[number]}${(typeof OFFER_LANGUAGE_SUFFIXES)[number]}`, ReturnType<typeof text>>;

export const offerSchema = z.object({
  intent: z.literal("update-offer"),
  ...textFields,
  offer_checked_on: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "admin.errors.date")
    .refine(isRealDay, "admin.errors.date")
    // A check cannot be in the future (a day of slack for time zones).
    .refine((day) => Date.parse(`${day}T00:00:00Z`) <= Date.now() + 24 * 60 * 60 * 1000, "admin.errors.future")
    .optional()
    .transform((v) => v ?? null),
});
