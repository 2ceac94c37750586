import type { ProviderConfig } from "../config.server";
import type { AssistantBlock, ChatMessage } from "../types";
import { ProviderError, type ChatProvider, type RoundRequest, type RoundResult } from "./provider.server";

/**
 * Any OpenAI-compatible chat-completions endpoint, through plain fetch (the openai package's
 * current major needs Node 22). Streams with server-sent events; retries 408/409/429/5xx twice,
 * waiting what retry-after-ms or retry-after asks (else 0.5 s, then 1 s).
 */
const DEFAULT_BASE_URL = "https://api.openai.com/v1";
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

/** Milliseconds the server asks us to wait, or null. */
export function retryDelayMs(headers: Headers, attempt: number): number {
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms > 0) return ms;
  const after = headers.get("retry-after");
  if (after) {
    const seconds = Number.parseFloat(after);
    if (Number.isFinite(seconds) && seconds > 0) return seconds * 1000;
    const date = Date.parse(after);
    if (Number.isFinite(date) && date > Date.now()) return date - Date.now();
  }
  return 500 * 2 ** attempt;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ProviderError("aborted", "aborted"));
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ProviderError("aborted", "aborted"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

const retryable = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;

function httpError(status: number, body: string): ProviderError {
  const kind = status === 429 ? "rate-limited" : status === 503 || status === 529 ? "overloaded" : "http";
  return new ProviderError(kind, `HTTP ${status}: ${body.slice(0, 300)}`, status);
}

interface StreamChunk {
  choices?: Array<{
    delta?: {
      content?: string | null;
      tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>;
    };
    finish_reason?: string | null;
  }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string; type?: string };
}

/** Reads the SSE body: `data:` lines, each a JSON chunk, until `data: [DONE]`. */
async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.search(/\r?\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer[newline] === "\r" ? 2 : 1));
      if (line.startsWith("data:")) yield line.slice(5).trim();
    }
  }
  buffer += decoder.decode();
  if (buffer.startsWith("data:")) yield buffer.slice(5).trim();
}

export function openAiProvider(config: ProviderConfig & { apiKey: string }): ChatProvider {
  const url = `${(config.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "")}/chat/completions`;

  async function send(request: RoundRequest): Promise<Response> {
    const body = JSON.stringify({
      model: config.model,
      messages: toOpenAiMessages(request.system, request.messages),
      tools: request.tools.map((t) => ({
        type: "function",
        function: { name: t.name, description: t.description, parameters: t.inputSchema },
      })),
      tool_choice: request.toolChoice,
      stream: true,
      stream_options: { include_usage: true },
    });
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${config.apiKey}`, Accept: "text/event-stream" },
          body,
          signal: request.signal,
        });
      } catch (error) {
        if (request.signal.aborted) throw new ProviderError("aborted", "aborted");
        throw new ProviderError("network", error instanceof Error ? error.message : String(error));
      }
      if (response.ok && response.body) return response;
      const text = await response.text().catch(() => "");
      if (attempt < MAX_RETRIES && retryable(response.status)) {
        await sleep(retryDelayMs(response.headers, attempt), request.signal);
        continue;
      }
      throw httpError(response.status, text);
    }
  }

  return {
    id: "openai",
    model: config.model,
    async round(request: RoundRequest): Promise<RoundResult> {
      const response = await send(request);
      let text = "";
      const calls: Array<{ id: string; name: string; args: string }> = [];
      let finish: string | null = null;
      let usage = { input: 0, output: 0 };
      let done = false;
      try {
        for await (const data of sseData(response.body!)) {
          if (data === "[DONE]") {
            done = true;
            break;
          }
          const chunk = JSON.parse(data) as StreamChunk;
          if (chunk.error) throw new ProviderError("stream", chunk.error.message ?? "error in stream");
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
        if (error instanceof ProviderError) throw error;
        if (request.signal.aborted) throw new ProviderError("aborted", "aborted");
        throw new ProviderError("stream", error instanceof Error ? error.message : String(error));
      }
      if (!done && finish === null) throw new ProviderError("stream", "the stream ended before the answer did");
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
