import type * as AnthropicSdk from "@anthropic-ai/sdk";
import type Anthropic from "@anthropic-ai/sdk";
import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
import type { ProviderConfig } from "../config.server";
import type { AssistantBlock, ChatMessage } from "../types";
import { ProviderError, type ChatProvider, type RoundRequest, type RoundResult } from "./provider.server";

type Sdk = typeof AnthropicSdk;
// The SDK is loaded at the first round, not when the server starts: importing it took a third of
// the start-up, for a feature only an admin uses.
let sdk: Promise<Sdk> | undefined;
const loadSdk = () => (sdk ??= import("@anthropic-ai/sdk"));

/** How many times the SDK retries a 408/409/429/5xx/529, waiting what retry-after asks. */
const MAX_RETRIES = 2;

/** Our neutral messages as the Messages API wants them; tool results travel in a user turn. */
export function toAnthropicMessages(messages: ChatMessage[]): MessageParam[] {
  const out: MessageParam[] = [];
  const push = (message: MessageParam) => {
    const last = out[out.length - 1];
    // Two user turns in a row (a tool result, then a new question) become one.
    if (last && last.role === message.role && message.role === "user") {
      const asBlocks = (content: MessageParam["content"]): ContentBlockParam[] =>
        typeof content === "string" ? [{ type: "text", text: content }] : [...content];
      last.content = [...asBlocks(last.content), ...asBlocks(message.content)];
      return;
    }
    out.push(message);
  };
  for (const message of messages) {
    if (message.role === "user") push({ role: "user", content: message.text });
    else if (message.role === "tool") {
      push({
        role: "user",
        content: message.results.map((r): ToolResultBlockParam => ({
          type: "tool_result",
          tool_use_id: r.toolUseId,
          content: r.content,
          is_error: r.isError,
        })),
      });
    } else {
      const content = message.blocks.flatMap((b): ContentBlockParam[] =>
        b.type === "text"
          ? b.text
            ? [{ type: "text", text: b.text }]
            : []
          : [{ type: "tool_use", id: b.id, name: b.name, input: b.input ?? {} }],
      );
      push({ role: "assistant", content: content.length > 0 ? content : [{ type: "text", text: "…" }] });
    }
  }
  return out;
}

function asProviderError(error: unknown, errors: Sdk | undefined): ProviderError {
  if (error instanceof ProviderError) return error;
  if (!errors) return new ProviderError("stream", error instanceof Error ? error.message : String(error));
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = errors;
  if (error instanceof APIUserAbortError) return new ProviderError("aborted", error.message);
  if (error instanceof APIConnectionTimeoutError) return new ProviderError("timeout", error.message);
  if (error instanceof APIConnectionError) return new ProviderError("network", error.message);
  if (error instanceof APIError) {
    const type = (error.error as { error?: { type?: string } } | undefined)?.error?.type;
    if (error.status === undefined)
      return new ProviderError(type === "overloaded_error" ? "overloaded" : "stream", error.message);
    if (error.status === 429) return new ProviderError("rate-limited", error.message, 429);
    if (error.status === 529 || type === "overloaded_error") return new ProviderError("overloaded", error.message, error.status);
    return new ProviderError("http", error.message, error.status);
  }
  return new ProviderError("stream", error instanceof Error ? error.message : String(error));
}

export function anthropicProvider(config: ProviderConfig & { apiKey: string }, timeoutMs: number): ChatProvider {
  let client: Anthropic | undefined;
  return {
    id: "anthropic",
    model: config.model,
    async round(request: RoundRequest): Promise<RoundResult> {
      let loaded: Sdk | undefined;
      try {
        loaded = await loadSdk();
        client ??= new loaded.default({
          apiKey: config.apiKey,
          baseURL: config.baseUrl ?? undefined,
          maxRetries: MAX_RETRIES,
          timeout: timeoutMs,
        });
        const stream = client.messages.stream(
          {
            model: config.model,
            max_tokens: request.maxTokens,
            system: request.system,
            messages: toAnthropicMessages(request.messages),
            tools: request.tools.map((t) => ({
              name: t.name,
              description: t.description,
              input_schema: t.inputSchema as Anthropic.Tool.InputSchema,
            })),
            tool_choice: request.toolChoice === "none" ? { type: "none" } : { type: "auto" },
          },
          { signal: request.signal },
        );
        stream.on("text", (delta) => request.onText(delta));
        const message = await stream.finalMessage();
        // A connection cut mid-answer ends the stream without an error: no stop reason tells it.
        if (!message.stop_reason) throw new ProviderError("stream", "the stream ended before the answer did");
        const blocks: AssistantBlock[] = [];
        for (const block of message.content) {
          if (block.type === "text") blocks.push({ type: "text", text: block.text });
          else if (block.type === "tool_use")
            blocks.push({ type: "tool_use", id: block.id, name: block.name, input: block.input });
        }
        const usage = message.usage;
        return {
          blocks,
          usage: {
            input: usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
            output: usage.output_tokens,
          },
          stopReason: message.stop_reason,
        };
      } catch (error) {
        throw asProviderError(error, loaded);
      }
    },
  };
}
