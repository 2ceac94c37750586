/**
 * The assistant's conversation in a provider-neutral shape: what is stored, what the transcript
 * renders, and what each provider translates to its own wire format. Shared with the browser.
 */
export const PROVIDERS = ["anthropic", "openai"] as const;
export type ProviderId = (typeof PROVIDERS)[number];

export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === "string" && (PROVIDERS as readonly string[]).includes(value);
}

/** The admin actions the assistant may propose (as a card holding the ordinary form). */
export const PROPOSAL_ACTIONS = [
  "deactivate_code",
  "approve_deletion_request",
  "reject_deletion_request",
  "reject_suggestion",
  "change_setting",
] as const;
export type ProposalAction = (typeof PROPOSAL_ACTIONS)[number];

interface TextBlock {
  type: "text";
  text: string;
}

interface ToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
}

export type AssistantBlock = TextBlock | ToolUseBlock;

export interface ToolResult {
  toolUseId: string;
  name: string;
  /** What the model reads: JSON text, or an error message. */
  content: string;
  isError: boolean;
  /** Rows the tool returned (null for a tool that answers one object, or an error). */
  rows: number | null;
  /** The result carries text written by visitors (marked as untrusted data inside it). */
  untrusted?: boolean;
}

/**
 * Why an exchange stopped before the model was done: a cap of the exchange (tool calls, size of
 * the tools' results, model calls) or the daily budget, which had no room for the next call.
 */
export const STOP_REASONS = ["tool-calls", "result-size", "proposals", "rounds", "tokens", "budget"] as const;
export type StopReason = (typeof STOP_REASONS)[number];

export type ChatMessage =
  | { role: "user"; text: string }
  /** `stop`: on the exchange's last message when a cap ended it (the transcript says so). */
  | { role: "assistant"; blocks: AssistantBlock[]; stop?: StopReason }
  | { role: "tool"; results: ToolResult[] };

export interface TokenUsage {
  input: number;
  output: number;
}

/** What the streaming endpoint sends, one JSON object per line. */
export type StreamEvent =
  | { type: "start" }
  | { type: "text"; delta: string }
  | { type: "tool-call"; id: string; name: string; input: unknown }
  | { type: "tool-result"; id: string; name: string; rows: number | null; isError: boolean }
  | { type: "stop"; reason: StopReason }
  | { type: "done"; conversationId: number }
  | { type: "error"; failure: string; error: { key: string; values?: Record<string, string | number> } | null };
