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
}

export type ChatMessage =
  { role: "user"; text: string } | { role: "assistant"; blocks: AssistantBlock[] } | { role: "tool"; results: ToolResult[] };

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
  | { type: "done"; conversationId: number }
  | { type: "error"; failure: string; error: { key: string; values?: Record<string, string | number> } | null };
