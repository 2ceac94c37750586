import type { ToolSpec } from "../tools.server";
import type { AssistantBlock, ChatMessage, ProviderId, TokenUsage } from "../types";

/**
 * One provider behind one interface: a round sends the conversation and the tools, streams the
 * text as it comes, and answers the assistant's blocks (text and tool calls) with the tokens used.
 * The tool loop, storage and the routes never know which provider runs.
 */
export interface RoundRequest {
  system: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  /** "none" on the last allowed round: the model must answer with what it has. */
  toolChoice: "auto" | "none";
  maxTokens: number;
  signal: AbortSignal;
  onText: (delta: string) => void;
}

export interface RoundResult {
  blocks: AssistantBlock[];
  usage: TokenUsage;
  stopReason: string | null;
}

export interface ChatProvider {
  readonly id: ProviderId;
  readonly model: string;
  round(request: RoundRequest): Promise<RoundResult>;
}

export type ProviderErrorKind = "timeout" | "rate-limited" | "overloaded" | "http" | "stream" | "network" | "aborted";

/** Any failure of a provider call, sorted so the log and the tests can tell them apart. */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}
