import { z } from "zod";
import { DEVICE_TYPES } from "./rules";

/**
 * The game's form fields, shared by the resource routes and the end dialog. Messages are keys of the
 * `game` namespace.
 */
export const PSEUDO_MAX = 20;

// Control characters (and the bidirectional overrides) have no place in a name shown to others.
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** A player's name as others will see it: no control character, no bidirectional override. */
export function isPrintableName(value: string): boolean {
  return !UNPRINTABLE.test(value);
}

export const pseudoSchema = z
  .string({ required_error: "errors.pseudoRequired", invalid_type_error: "errors.pseudoRequired" })
  .trim()
  .min(1, "errors.pseudoRequired")
  .max(PSEUDO_MAX, "errors.pseudoTooLong")
  .refine(isPrintableName, "errors.pseudoInvalid");

export const deviceSchema = z.enum(DEVICE_TYPES, {
  errorMap: () => ({ message: "errors.device" }),
});

export const startSchema = z.object({ device_type: deviceSchema });

/** `collected_at`: comma-separated whole milliseconds since play began, at most one per orb. */
const COLLECTED_AT = /^(\d{1,5}(,\d{1,5}){0,399})?$/;

export const scoreSchema = z.object({
  token: z.string({ required_error: "errors.session" }).max(200, "errors.session"),
  player_name: pseudoSchema,
  score: z
    .string({ required_error: "errors.score" })
    .regex(/^\d{1,6}$/, "errors.score")
    .transform(Number),
  device_type: deviceSchema,
  // Required (issue 56): a score is checked against the times its orbs were collected.
  collected_at: z
    .string({ required_error: "errors.collectedAt", invalid_type_error: "errors.collectedAt" })
    .regex(COLLECTED_AT, "errors.collectedAt")
    .transform((v) => (v === "" ? [] : v.split(",").map(Number))),
});
