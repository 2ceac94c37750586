import { z } from "zod/v4";
import { platformExists } from "~db/repositories/assistant-queries.server";
import { startOfDayIso } from "~db/time";

/**
 * What every assistant tool is made of: its definition (a zod input schema, sent to the model as
 * JSON Schema), the inputs tools share (a row limit, a day, a slug, a status), and the mistakes the
 * model can fix, answered as error results (ToolInputError).
 */

export const MAX_RANGE_DAYS = 90;

/** What a tool answers: the payload the model reads, and how many rows it holds. */
export interface ToolOutput {
  data: unknown;
  rows: number | null;
}

export interface ToolDefinition<S extends z.ZodObject> {
  name: string;
  description: string;
  schema: S;
  run: (input: z.infer<S>, now: Date) => Promise<ToolOutput>;
}

export function defineTool<S extends z.ZodObject>(tool: ToolDefinition<S>) {
  return tool as unknown as ToolDefinition<z.ZodObject>;
}

/** A mistake the model can fix (unknown slug, bad range): answered as an error result. */
export class ToolInputError extends Error {}

export const limit = (max: number, fallback: number) =>
  z.number().int().min(1).max(max).default(fallback).describe(`Maximum rows to return (1-${max}).`);
export const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "expected YYYY-MM-DD")
  .describe("A day as YYYY-MM-DD (Europe/Paris).");
export const slug = z.string().trim().min(1).max(60).describe("The platform's slug, e.g. revolut.");
export const status = z.enum(["pending", "approved", "rejected", "all"]);

/** Paris midnight starting `date` (noon UTC is always on the same Paris date). */
export function dayStart(date: string): string {
  const noon = new Date(`${date}T12:00:00Z`);
  if (Number.isNaN(noon.getTime()) || noon.toISOString().slice(0, 10) !== date) throw new ToolInputError(`invalid date ${date}`);
  return startOfDayIso(noon);
}

export function nextDayStart(date: string): string {
  return startOfDayIso(new Date(Date.parse(`${date}T12:00:00Z`) + 86_400_000));
}

export function dayCount(from: string, to: string): number {
  dayStart(from);
  dayStart(to);
  const days = Math.round((Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)) / 86_400_000) + 1;
  if (days < 1) throw new ToolInputError("`from` must not be after `to`");
  if (days > MAX_RANGE_DAYS) throw new ToolInputError(`the range is ${days} days; at most ${MAX_RANGE_DAYS} are allowed`);
  return days;
}

export async function requirePlatform(value: string) {
  if (!(await platformExists(value))) throw new ToolInputError(`no platform has the slug "${value}"; list_platforms gives them`);
}
