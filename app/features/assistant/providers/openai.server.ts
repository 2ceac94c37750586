import type * as OpenAiSdk from "openai";
import type OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ProviderConfig } from "../config.server";
import type { AssistantBlock, ChatMessage } from "../types";
import { ProviderError, type ChatProvider, type RoundRequest, type RoundResult } from "./provider.server";

/**
 * Any OpenAI-compatible chat-completions endpoint, through the openai package (its major 6: 7 needs
 * Node 22), loaded on the first use like the Anthropic SDK. It streams, and retries 408/409/429/5xx
 * twice, waiting what retry-after-ms or retry-after asks.
 */
type Sdk = typeof OpenAiSdk;
let sdk: Promise<Sdk> | undefined;
const loadSdk = () => (sdk ??= import("openai"));
const MAX_RETRIES = 2;

type OpenAiMessage =
  | { role: "system" | "user"; content: string }
  | {
      role: "assistant";
      content: string | null;
      tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
    }
  | { role: "tool"; tool_call_id: string; content: string };

export function toOpenAiMessages(system: string, messages: ChatMessage[]): OpenAiMessage[] {
  const out: OpenAiMessage[] = [{ role: "system", content: system }];
  for (const message of messages) {
    if (message.role === "user") out.push({ role: "user", content: message.text });
    else if (message.role === "tool") {
      for (const r of message.results) {
        out.push({ role: "tool", tool_call_id: r.toolUseId, content: r.content });
      }
    } else {
      const text = message.blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
      const calls = message.blocks.flatMap((b) =>
        b.type === "tool_use"
          ? [{ id: b.id, type: "function" as const, function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } }]
          : [],
      );
      // An answer a cap ended with nothing written still needs content when it calls no tool.
      out.push({
        role: "assistant",
        content: text || (calls.length > 0 ? null : "…"),
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      });
    }
  }
  return out;
}

function asProviderError(error: unknown, errors: Sdk | undefined): ProviderError {
  if (error instanceof ProviderError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (!errors) return new ProviderError("stream", message);
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = errors;
  if (error instanceof APIUserAbortError) return new ProviderError("aborted", message);
  if (error instanceof APIConnectionTimeoutError) return new ProviderError("timeout", message);
  if (error instanceof APIConnectionError) return new ProviderError("network", message);
  if (error instanceof APIError) {
    // An error chunk inside a 200 stream has no status.
    if (error.status === undefined) return new ProviderError("stream", message);
    if (error.status === 429) return new ProviderError("rate-limited", message, 429);
    if (error.status === 503 || error.status === 529) return new ProviderError("overloaded", message, error.status);
    return new ProviderError("http", message, error.status);
  }
  return new ProviderError("stream", message);
}

export function openAiProvider(config: ProviderConfig & { apiKey: string }): ChatProvider {
  let client: OpenAI | undefined;
  return {
    id: "openai",
    model: config.model,
    async round(request: RoundRequest): Promise<RoundResult> {
      let loaded: Sdk | undefined;
      let text = "";
      const calls: Array<{ id: string; name: string; args: string }> = [];
      let finish: string | null = null;
      let usage = { input: 0, output: 0 };
      try {
        loaded = await loadSdk();
        client ??= new loaded.default({ apiKey: config.apiKey, baseURL: config.baseUrl ?? undefined, maxRetries: MAX_RETRIES });
        const stream = await client.chat.completions.create(
          {
            model: config.model,
            messages: toOpenAiMessages(request.system, request.messages) as ChatCompletionMessageParam[],
            tools: request.tools.map((t) => ({
              type: "function" as const,
              function: { name: t.name, description: t.description, parameters: t.inputSchema as Record<string, unknown> },
            })),
            tool_choice: request.toolChoice,
            stream: true,
            stream_options: { include_usage: true },
          },
          { signal: request.signal },
        );
        for await (const chunk of stream) {
          if (chunk.usage) usage = { input: chunk.usage.prompt_tokens ?? 0, output: chunk.usage.completion_tokens ?? 0 };
          const choice = chunk.choices?.[0];
          if (!choice) continue;
          if (choice.delta?.content) {
            text += choice.delta.content;
            request.onText(choice.delta.content);
          }
          for (const call of choice.delta?.tool_calls ?? []) {
            const index = call.index ?? calls.length;
            calls[index] ??= { id: "", name: "", args: "" };
            const slot = calls[index]!;
            if (call.id) slot.id = call.id;
            if (call.function?.name) slot.name += call.function.name;
            if (call.function?.arguments) slot.args += call.function.arguments;
          }
          if (choice.finish_reason) finish = choice.finish_reason;
        }
      } catch (error) {
        if (request.signal.aborted) throw new ProviderError("aborted", "aborted");
        throw asProviderError(error, loaded);
      }
      if (finish === null) throw new ProviderError("stream", "the stream ended before the answer did");
      const blocks: AssistantBlock[] = [];
      if (text) blocks.push({ type: "text", text });
      calls.forEach((call, i) => {
        let input: unknown = {};
        try {
          input = call.args ? JSON.parse(call.args) : {};
        } catch {
          // Arguments that are not JSON: the tool answers an input error the model can fix.
          input = { unparsable_arguments: call.args };
        }
        blocks.push({ type: "tool_use", id: call.id || `call_${i}`, name: call.name, input });
      });
      return { blocks, usage, stopReason: finish };
    },
  };
}
