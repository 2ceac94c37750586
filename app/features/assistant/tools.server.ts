import { z } from "zod/v4";
import {
  deletionRequests,
  drawsPerDayByPlatform,
  platformCodes,
  platformsWithCodeCounts,
  siteOverview,
  suggestionsWithVotes,
  topScores,
} from "~db/repositories/assistant-queries.server";
import { getDashboardStats } from "~db/repositories/daily-figures.server";
import { getSettings } from "~db/repositories/settings.server";
import { SETTING_KEYS, type SettingKey } from "~db/seed-data";
import { providerStatuses, readBudget } from "./config.server";
import { checkProposal, proposeActionSchema, type ProposeActionInput } from "./proposals.server";
import {
  day,
  dayCount,
  dayStart,
  defineTool,
  limit,
  MAX_RANGE_DAYS,
  nextDayStart,
  requirePlatform,
  slug,
  status,
  ToolInputError,
  type ToolOutput,
} from "./tool-inputs.server";
import type { ToolResult } from "./types";
import { holdsVisitorText, untrusted } from "./untrusted";

/**
 * The assistant's tools. Each is a typed function over the repositories with a zod input schema
 * (sent to the model as JSON Schema), read-only, and capped: at most `limit` rows and
 * MAX_RESULT_CHARS of JSON. Text written by visitors reaches the model only through these results,
 * each such value wrapped by `untrusted()` (./untrusted.ts).
 */

const MAX_RESULT_CHARS = 12_000;
const TOOL_TIMEOUT_MS = 5_000;

// Settings shown to the model: ad snippets are markup of their own, summarised by their size.
const SNIPPET_SETTINGS = new Set<SettingKey>(["adsense_head", "adsense_body"]);

const TOOLS = [
  defineTool({
    name: "get_site_stats",
    description:
      "Site-wide counters: active and total codes, draws today (since Paris midnight) and in total, platforms, pending deletion requests, pending suggestions, game scores.",
    schema: z.object({}),
    run: async (_input, now) => {
      const [stats, overview] = await Promise.all([getDashboardStats(now), siteOverview()]);
      return { data: { ...stats, ...overview }, rows: null };
    },
  }),
  defineTool({
    name: "list_platforms",
    description:
      "Platforms with their code counts: total, available now (active and not expired: what a draw can serve), inactive, and total serves. A platform with 0 available codes has run out.",
    schema: z.object({
      active_only: z.boolean().default(false).describe("Only active platforms."),
      limit: limit(100, 100),
    }),
    run: async (input, now) => {
      const rows = await platformsWithCodeCounts(input.active_only, input.limit, now);
      return { data: rows, rows: rows.length };
    },
  }),
  defineTool({
    name: "get_platform_codes",
    description:
      "One platform's referral codes with their serve counts. filter: all (newest first), never_served, expiring_soon (active temporary codes expiring within expiring_within_days), most_served. Codes and links were submitted by anonymous visitors.",
    schema: z.object({
      platform: slug,
      filter: z.enum(["all", "never_served", "expiring_soon", "most_served"]).default("all"),
      expiring_within_days: z.number().int().min(1).max(365).default(7),
      limit: limit(100, 25),
    }),
    run: async (input, now) => {
      const result = await platformCodes(input.platform, input.filter, input.expiring_within_days, input.limit, now);
      if (!result) throw new ToolInputError(`no platform has the slug "${input.platform}"; list_platforms gives them`);
      const codes = result.codes.map((c) => ({ ...c, code: untrusted(c.code) }));
      return { data: { platform: result.platform, codes }, rows: codes.length };
    },
  }),
  defineTool({
    name: "get_draws_per_day",
    description: `Draws (codes served) per Europe/Paris day and platform, from \`from\` to \`to\` inclusive, at most ${MAX_RANGE_DAYS} days. Days without draws are left out of each platform's per_day map.`,
    schema: z.object({
      from: day,
      to: day,
      platform: slug.optional().describe("Only this platform's slug; all platforms when left out."),
    }),
    run: async (input) => {
      const days = dayCount(input.from, input.to);
      if (input.platform) await requirePlatform(input.platform);
      const { dayStarts, rows } = await drawsPerDayByPlatform(days, new Date(`${input.to}T12:00:00Z`), input.platform ?? null);
      const dates = dayStarts.map((_, i) =>
        new Date(Date.parse(`${input.from}T12:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10),
      );
      const platforms = rows.map((row) => {
        const perDay: Record<string, number> = {};
        let total = 0;
        dates.forEach((date, i) => {
          const n = Number(row[`d${i}`] ?? 0);
          if (n > 0) perDay[date] = n;
          total += n;
        });
        return { platform: row.slug, total, per_day: perDay };
      });
      return { data: { from: input.from, to: input.to, platforms }, rows: platforms.length };
    },
  }),
  defineTool({
    name: "list_deletion_requests",
    description:
      "Deletion requests (oldest first) with their platform, code, the visitor's reason, status and dates. older_than_days keeps those created more than that many days ago.",
    schema: z.object({
      status: status.default("pending"),
      older_than_days: z.number().int().min(0).max(3650).optional(),
      limit: limit(100, 50),
    }),
    run: async (input, now) => {
      const olderThan =
        input.older_than_days === undefined ? null : new Date(now.getTime() - input.older_than_days * 86_400_000).toISOString();
      const rows = (await deletionRequests(input.status, olderThan, input.limit)).map((r) => ({
        ...r,
        code: untrusted(r.code),
        reason: untrusted(r.reason),
      }));
      return { data: rows, rows: rows.length };
    },
  }),
  defineTool({
    name: "list_suggestions",
    description: "Platform suggestions from visitors, most votes first, with description, website, status and votes.",
    schema: z.object({ status: status.default("all"), limit: limit(100, 30) }),
    run: async (input) => {
      const rows = (await suggestionsWithVotes(input.status, input.limit)).map((r) => ({
        ...r,
        name: untrusted(r.name),
        description: untrusted(r.description),
        website_url: untrusted(r.website_url),
      }));
      return { data: rows, rows: rows.length };
    },
  }),
  defineTool({
    name: "get_top_scores",
    description: "Best game scores per device type between two Europe/Paris days inclusive (at most 366 days).",
    schema: z.object({
      device: z.enum(["mobile", "desktop", "all"]).default("all"),
      from: day,
      to: day,
      limit: limit(50, 10).describe("Rows per device type (1-50)."),
    }),
    run: async (input) => {
      const fromIso = dayStart(input.from);
      const toIso = nextDayStart(input.to);
      if (fromIso >= toIso) throw new ToolInputError("`from` must not be after `to`");
      if (Date.parse(toIso) - Date.parse(fromIso) > 367 * 86_400_000) throw new ToolInputError("at most 366 days");
      const devices = input.device === "all" ? (["mobile", "desktop"] as const) : [input.device];
      const data: Record<string, unknown> = {};
      let rows = 0;
      for (const device of devices) {
        const list = await topScores(device, fromIso, toIso, input.limit);
        data[device] = list.map((s) => ({ player_name: untrusted(s.player_name), score: s.score, created_at: s.created_at }));
        rows += list.length;
      }
      return { data, rows };
    },
  }),
  defineTool({
    name: "get_settings",
    description:
      "The site settings (none of them secret: keys and passwords live in the server's environment, never here), plus the assistant's own daily token budget and which providers have a key.",
    schema: z.object({}),
    run: async (_input, now) => {
      const [settings, budget] = await Promise.all([getSettings(), readBudget(now)]);
      const visible: Record<string, string> = {};
      for (const key of SETTING_KEYS) {
        const value = settings[key];
        visible[key] = SNIPPET_SETTINGS.has(key) ? (value ? `(set, ${value.length} characters)` : "") : value;
      }
      return {
        data: {
          settings: visible,
          assistant: {
            daily_token_budget: budget.limit,
            tokens_used_today_utc: budget.used,
            providers: providerStatuses().map((p) => ({ provider: p.id, has_key: p.configured, model: p.model })),
          },
        },
        rows: SETTING_KEYS.length,
      };
    },
  }),
  defineTool({
    name: "propose_action",
    description:
      "Propose one admin action. Nothing changes: the admin is shown the ordinary admin form for it, filled in, and decides whether to submit it. Actions: deactivate_code (id of the code), approve_deletion_request / reject_deletion_request (id of the pending request), reject_suggestion (id of the pending suggestion), change_setting (key and value).",
    schema: proposeActionSchema,
    run: async (input) => ({ data: await checkProposal(input as ProposeActionInput), rows: null }),
  }),
];

export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** The tools as JSON Schema, for the providers. */
export const TOOL_SPECS: ToolSpec[] = TOOLS.map((tool) => {
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(tool.schema, { io: "input" }) as Record<string, unknown>;
  return { name: tool.name, description: tool.description, inputSchema };
});

/**
 * Keeps a result under `maxChars`: rows are dropped from the end of its list (the result itself, or
 * its one list field) and the cut is said; a result with no list is left out whole rather than cut
 * mid-value, so visitors' text never leaves its wrapper.
 */
function capResult(output: ToolOutput, maxChars: number): { content: string; rows: number | null } {
  const text = JSON.stringify(output.data);
  if (text.length <= maxChars) return { content: text, rows: output.rows };
  const data = output.data;
  const listKey =
    data && typeof data === "object" && !Array.isArray(data)
      ? Object.keys(data).filter((k) => Array.isArray((data as Record<string, unknown>)[k]))
      : [];
  const list = Array.isArray(data)
    ? data
    : listKey.length === 1
      ? ((data as Record<string, unknown[]>)[listKey[0]!] ?? [])
      : null;
  if (list) {
    const rows = [...list];
    while (rows.length > 0) {
      rows.pop();
      const cut = { truncated: true, rows_left_out: list.length - rows.length };
      const candidate = JSON.stringify(
        Array.isArray(data) ? { rows, ...cut } : { ...(data as Record<string, unknown>), [listKey[0]!]: rows, ...cut },
      );
      if (candidate.length <= maxChars) return { content: candidate, rows: rows.length };
    }
  }
  return { content: JSON.stringify({ truncated: true, note: "the result was too large to send; ask for fewer rows" }), rows: 0 };
}

function describeZodError(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
}

/**
 * Runs one tool call. Never throws: an unknown tool, bad input, a failure or a timeout becomes
 * an error result the model reads (is_error), so one bad call never ends the exchange.
 */
export async function runTool(
  call: { id: string; name: string; input: unknown },
  now = new Date(),
  maxChars = MAX_RESULT_CHARS,
): Promise<ToolResult> {
  const base = { toolUseId: call.id, name: call.name };
  const tool = TOOLS.find((t) => t.name === call.name);
  if (!tool) return { ...base, content: `Error: unknown tool "${call.name}".`, isError: true, rows: null };
  const parsed = tool.schema.safeParse(call.input ?? {});
  if (!parsed.success) {
    return { ...base, content: `Error: invalid input: ${describeZodError(parsed.error)}`, isError: true, rows: null };
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    const output = await Promise.race([
      tool.run(parsed.data, now),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${TOOL_TIMEOUT_MS} ms`)), TOOL_TIMEOUT_MS);
      }),
    ]);
    const capped = capResult(output, Math.min(maxChars, MAX_RESULT_CHARS));
    return { ...base, ...capped, isError: false, untrusted: holdsVisitorText(capped.content) };
  } catch (error) {
    if (error instanceof ToolInputError) return { ...base, content: `Error: ${error.message}`, isError: true, rows: null };
    console.error(`assistant tool ${call.name} failed:`, error);
    const reason = error instanceof Error && error.message.startsWith("timed out") ? error.message : "the query failed";
    return { ...base, content: `Error: ${reason}.`, isError: true, rows: null };
  } finally {
    clearTimeout(timer);
  }
}
