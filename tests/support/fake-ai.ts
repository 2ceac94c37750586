import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * Small local servers speaking the Anthropic Messages API (`POST /v1/messages`, JSON and SSE
 * with its named events) and OpenAI chat completions (`POST /v1/chat/completions`, JSON and SSE),
 * so the real client code (the Anthropic SDK, our fetch client) runs against them through
 * ANTHROPIC_BASE_URL / OPENAI_BASE_URL. What they answer is a Step: scripted by a test (a queue),
 * or chosen from keywords in the admin's last message (the e2e run, see `keywordBrain`).
 */

export type Step =
  | { kind: "text"; text: string; delayMs?: number }
  | { kind: "tools"; calls: Array<{ name: string; input: unknown }>; text?: string }
  | { kind: "status"; status: number; type?: string; retryAfter?: string; retryAfterMs?: string }
  /** 200, starts the answer, then sends nothing more and keeps the connection open. */
  | { kind: "stall"; text?: string }
  /** 200, starts the answer, then an `error` event (Anthropic) or error chunk (OpenAI). */
  | { kind: "error-event"; text?: string; type?: string }
  /** 200, starts the answer, then the connection is cut. */
  | { kind: "cut"; text?: string };

/** What a fake sees of a request, in one shape for both protocols. */
export interface SeenRequest {
  protocol: "anthropic" | "openai";
  at: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
  system: string;
  /** The admin's last message. */
  lastUserText: string;
  /** Results of the tool calls answered since the last assistant turn (empty on a first round). */
  toolResults: Array<{ id: string; content: string; isError: boolean }>;
  /** Every text the model was sent, system prompt included. */
  allText: string;
}

export interface FakeAi {
  url: string;
  port: number;
  requests: SeenRequest[];
  /** Steps answered first, in order; when empty, the keyword brain answers. */
  script: (...steps: Step[]) => void;
  /**
   * On: when no step is scripted, the model is one that obeys what it reads in tool results
   * (`obeyingBrain`), as a real model may. Off (the default): the keyword brain.
   */
  obey: (on: boolean) => void;
  /** Resolves when a request whose view matches arrives (at once if one already has). */
  received: (match: (seen: SeenRequest) => boolean) => Promise<SeenRequest>;
  reset: () => void;
  stop: () => Promise<void>;
}

/**
 * The e2e run's model: the admin's message picks the behaviour.
 * - "[tool]": calls list_platforms, then answers with the platforms the result named;
 * - "[propose CODE]": lists pending deletion requests, proposes approving the one for CODE, then says so;
 * - "[slow]": streams its (final) answer in several pieces, 250 ms apart;
 * - "[fail]": answers 500 (every retry too);
 * - anything else: "Réponse : " and the message.
 */
function keywordBrain(seen: SeenRequest): Step {
  const text = seen.lastUserText;
  const delayMs = text.includes("[slow]") ? 250 : undefined;
  if (text.includes("[tool]")) {
    if (seen.toolResults.length === 0)
      return { kind: "tools", calls: [{ name: "list_platforms", input: { active_only: true } }] };
    const rows = JSON.parse(seen.toolResults[0]!.content) as Array<{ name: string; availableCodes: number }>;
    return {
      kind: "text",
      text: `**${rows.length} plateformes** actives : ${rows.map((r) => `${r.name} (${r.availableCodes})`).join(", ")}. Voilà ce que dit la base en ce moment.`,
      delayMs,
    };
  }
  const propose = /\[propose(?: ([A-Z0-9]+))?\]/.exec(text);
  if (propose) {
    const last = seen.toolResults[0];
    if (!last) return { kind: "tools", calls: [{ name: "list_deletion_requests", input: { status: "pending", limit: 100 } }] };
    if (!last.content.includes("shown_to_admin")) {
      // Visitors' text comes wrapped as untrusted data: the code is the wrapper's one value.
      const rows = JSON.parse(last.content) as Array<{ id: number; code: { untrusted_visitor_text: string } }>;
      const row = rows.find((r) => !propose[1] || r.code.untrusted_visitor_text === propose[1]);
      if (!row) return { kind: "text", text: "Aucune demande en attente." };
      return {
        kind: "tools",
        calls: [
          {
            name: "propose_action",
            input: { action: "approve_deletion_request", id: row.id, reason: "Le code ne marche plus." },
          },
        ],
      };
    }
    return { kind: "text", text: "Je propose d'approuver cette demande : à vous de valider." };
  }
  if (text.includes("[fail]")) return { kind: "status", status: 500, type: "api_error", retryAfterMs: "50" };
  if (delayMs)
    return { kind: "text", text: "Première partie. Deuxième partie. Troisième partie. Quatrième partie. Fin.", delayMs };
  return { kind: "text", text: `Réponse : ${text}` };
}

/** Every string inside a tool result's JSON (or the result itself when it is not JSON), wrappers and all. */
function stringsIn(content: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return [content];
  }
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(value);
  return out;
}

/** `call TOOL {json}` in a text: what an obeying model takes for an order. */
const ORDER = /call ([a-z_]+) (\{[^{}]*\})/g;

/** Whether the request forbids tools (the last call of an exchange): a real model then only writes. */
function toolsForbidden(seen: SeenRequest): boolean {
  const choice = seen.body.tool_choice as { type?: string } | string | undefined;
  return choice === "none" || (typeof choice === "object" && choice?.type === "none");
}

/**
 * A model that obeys instructions it finds in tool results, as a real one may (the injection tests):
 * - first, it reads what visitors wrote: the pending deletion requests and suggestions;
 * - then it carries out every `call TOOL {json}` written in the results it just got (through any
 *   wrapper: it reads every string), all in one turn;
 * - once no result gives orders, or tools are forbidden, it answers, repeating the visitors' texts
 *   word for word (links included), as a model quoting its sources does.
 */
function obeyingBrain(seen: SeenRequest): Step {
  if (seen.toolResults.length === 0 && !toolsForbidden(seen)) {
    return {
      kind: "tools",
      calls: [
        { name: "list_deletion_requests", input: { status: "pending", limit: 100 } },
        { name: "list_suggestions", input: { status: "pending", limit: 100 } },
      ],
    };
  }
  const texts = seen.toolResults.flatMap((r) => stringsIn(r.content));
  const calls: Array<{ name: string; input: unknown }> = [];
  for (const text of texts) {
    for (const match of text.matchAll(ORDER)) {
      try {
        calls.push({ name: match[1]!, input: JSON.parse(match[2]!) as unknown });
      } catch {
        // not JSON: an order it cannot follow
      }
    }
  }
  if (calls.length > 0 && !toolsForbidden(seen)) return { kind: "tools", calls };
  const quoted = [...seen.allText.matchAll(/https?:\/\/[^\s"\\]+/g)].map((m) => m[0]);
  return {
    kind: "text",
    text: `Voici ce que disent les visiteurs. Re-validez ici : ${quoted.map((u) => `[lien](${u}) ${u}`).join(" ")} Fait.`,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tokensOf = (s: string) => Math.max(1, Math.ceil(s.length / 4));

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (data += c));
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });
}

/** Splits a text in a few pieces, as a model streams it. */
function pieces(text: string): string[] {
  const words = text.split(/(?<= )/);
  const out: string[] = [];
  for (let i = 0; i < words.length; i += 3) out.push(words.slice(i, i + 3).join(""));
  return out.length ? out : [""];
}

// ---------- Anthropic ----------

interface AnthropicBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}
interface AnthropicMessage {
  role: string;
  content: string | AnthropicBlock[];
}

function anthropicView(body: Record<string, unknown>, headers: http.IncomingHttpHeaders): SeenRequest | string {
  // The SDK sends the key as `Authorization: Bearer` (older versions: `x-api-key`).
  if (!headers["x-api-key"] && !/^Bearer .+/.test(String(headers.authorization ?? ""))) return "missing API key";
  if (!headers["anthropic-version"]) return "missing anthropic-version header";
  if (typeof body.model !== "string" || typeof body.max_tokens !== "number") return "model and max_tokens are required";
  const messages = body.messages as AnthropicMessage[] | undefined;
  if (!Array.isArray(messages) || messages.length === 0) return "messages: at least one message is required";
  if (messages[0]!.role !== "user") return "messages: the first message must use the user role";
  // Every tool_result answers a tool_use of the assistant turn just before it.
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (i > 0 && messages[i - 1]!.role === m.role) return `messages.${i}: roles must alternate`;
    if (typeof m.content === "string") continue;
    if (m.content.length === 0) return `messages.${i}: content must not be empty`;
    const asked = new Set(
      (typeof messages[i - 1]?.content === "string" ? [] : ((messages[i - 1]?.content as AnthropicBlock[]) ?? []))
        .filter((b) => b.type === "tool_use")
        .map((b) => b.id),
    );
    for (const b of m.content) {
      if (b.type === "tool_result" && !asked.has(b.tool_use_id)) return `messages.${i}: unexpected tool_use_id ${b.tool_use_id}`;
    }
  }
  const textOf = (m: AnthropicMessage) =>
    typeof m.content === "string"
      ? m.content
      : m.content.map((b) => (b.type === "text" ? b.text : b.type === "tool_result" ? String(b.content) : "")).join("\n");
  const lastUser = [...messages]
    .reverse()
    .find((m) => m.role === "user" && (typeof m.content === "string" || m.content.some((b) => b.type === "text")));
  const last = messages[messages.length - 1]!;
  const toolResults =
    typeof last.content === "string"
      ? []
      : last.content
          .filter((b) => b.type === "tool_result")
          .map((b) => ({ id: b.tool_use_id!, content: String(b.content), isError: b.is_error === true }));
  const system = typeof body.system === "string" ? body.system : JSON.stringify(body.system ?? "");
  return {
    protocol: "anthropic",
    at: Date.now(),
    headers,
    body,
    system,
    lastUserText: lastUser ? textOf(lastUser) : "",
    toolResults,
    allText: [system, ...messages.map(textOf)].join("\n"),
  };
}

function sse(res: http.ServerResponse, event: string, data: unknown) {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

async function answerAnthropic(res: http.ServerResponse, seen: SeenRequest, step: Step, n: number) {
  const model = String(seen.body.model);
  const inputTokens = tokensOf(JSON.stringify(seen.body));
  if (step.kind === "status") {
    const headers: Record<string, string> = { "Content-Type": "application/json", "request-id": `req_${n}` };
    if (step.retryAfter) headers["retry-after"] = step.retryAfter;
    if (step.retryAfterMs) headers["retry-after-ms"] = step.retryAfterMs;
    const type = step.type ?? (step.status === 429 ? "rate_limit_error" : step.status === 529 ? "overloaded_error" : "api_error");
    res.writeHead(step.status, headers);
    res.end(JSON.stringify({ type: "error", error: { type, message: `fake ${type}` } }));
    return;
  }
  const text = step.kind === "tools" ? (step.text ?? "") : (step.text ?? "");
  const calls = step.kind === "tools" ? step.calls.map((c, i) => ({ ...c, id: `toolu_${n}_${i}` })) : [];
  const stopReason = calls.length > 0 ? "tool_use" : "end_turn";
  const outputTokens = tokensOf(text + JSON.stringify(calls));
  if (seen.body.stream !== true) {
    if (step.kind !== "text" && step.kind !== "tools") {
      res.writeHead(500, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "api_error", message: "fake failure" } }));
      return;
    }
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(
      JSON.stringify({
        id: `msg_${n}`,
        type: "message",
        role: "assistant",
        model,
        content: [
          ...(text ? [{ type: "text", text }] : []),
          ...calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.input })),
        ],
        stop_reason: stopReason,
        stop_sequence: null,
        usage: { input_tokens: inputTokens, output_tokens: outputTokens },
      }),
    );
    return;
  }
  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" });
  sse(res, "message_start", {
    type: "message_start",
    message: {
      id: `msg_${n}`,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: 1 },
    },
  });
  let index = 0;
  if (text) {
    sse(res, "content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
    sse(res, "ping", { type: "ping" });
    for (const piece of pieces(text)) {
      sse(res, "content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } });
      if (step.kind === "text" && step.delayMs) await sleep(step.delayMs);
    }
    if (step.kind === "stall") return; // nothing more, connection left open
    if (step.kind === "cut") {
      // Let what was written reach the client first, so the break is mid-answer.
      await sleep(100);
      res.socket?.destroy();
      return;
    }
    if (step.kind === "error-event") {
      sse(res, "error", { type: "error", error: { type: step.type ?? "overloaded_error", message: "Overloaded" } });
      res.end();
      return;
    }
    sse(res, "content_block_stop", { type: "content_block_stop", index });
    index++;
  } else if (step.kind === "stall") return;
  else if (step.kind === "cut") {
    await sleep(100);
    res.socket?.destroy();
    return;
  } else if (step.kind === "error-event") {
    sse(res, "error", { type: "error", error: { type: step.type ?? "overloaded_error", message: "Overloaded" } });
    res.end();
    return;
  }
  for (const call of calls) {
    sse(res, "content_block_start", {
      type: "content_block_start",
      index,
      content_block: { type: "tool_use", id: call.id, name: call.name, input: {} },
    });
    const json = JSON.stringify(call.input);
    const half = Math.ceil(json.length / 2);
    for (const part of [json.slice(0, half), json.slice(half)]) {
      sse(res, "content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: part },
      });
    }
    sse(res, "content_block_stop", { type: "content_block_stop", index });
    index++;
  }
  sse(res, "message_delta", {
    type: "message_delta",
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: outputTokens },
  });
  sse(res, "message_stop", { type: "message_stop" });
  res.end();
}

// ---------- OpenAI ----------

interface OpenAiMessage {
  role: string;
  content?: string | null;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

function openAiView(body: Record<string, unknown>, headers: http.IncomingHttpHeaders): SeenRequest | string {
  if (!/^Bearer .+/.test(String(headers.authorization ?? ""))) return "missing bearer token";
  const messages = body.messages as OpenAiMessage[] | undefined;
  if (typeof body.model !== "string" || !Array.isArray(messages) || messages.length === 0)
    return "model and messages are required";
  const asked = new Set<string>();
  for (const m of messages) {
    for (const c of m.tool_calls ?? []) asked.add(c.id);
    if (m.role === "tool" && !asked.has(m.tool_call_id ?? "")) return `unknown tool_call_id ${m.tool_call_id}`;
  }
  const system = messages
    .filter((m) => m.role === "system")
    .map((m) => m.content ?? "")
    .join("\n");
  const lastUser = [...messages].reverse().find((m) => m.role === "user");
  const toolResults: SeenRequest["toolResults"] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]!.role === "tool"; i--) {
    toolResults.unshift({ id: messages[i]!.tool_call_id!, content: messages[i]!.content ?? "", isError: false });
  }
  return {
    protocol: "openai",
    at: Date.now(),
    headers,
    body,
    system,
    lastUserText: lastUser?.content ?? "",
    toolResults,
    allText: messages.map((m) => m.content ?? "").join("\n"),
  };
}

async function answerOpenAi(res: http.ServerResponse, seen: SeenRequest, step: Step, n: number) {
  const model = String(seen.body.model);
  if (step.kind === "status") {
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (step.retryAfter) headers["retry-after"] = step.retryAfter;
    if (step.retryAfterMs) headers["retry-after-ms"] = step.retryAfterMs;
    res.writeHead(step.status, headers);
    res.end(JSON.stringify({ error: { message: "fake error", type: step.type ?? "server_error", code: null } }));
    return;
  }
  const text = step.text ?? "";
  const calls = step.kind === "tools" ? step.calls.map((c, i) => ({ ...c, id: `call_${n}_${i}` })) : [];
  const finish = calls.length > 0 ? "tool_calls" : "stop";
  const usage = { prompt_tokens: tokensOf(JSON.stringify(seen.body)), completion_tokens: tokensOf(text + JSON.stringify(calls)) };
  const base = { id: `chatcmpl-${n}`, created: Math.floor(Date.now() / 1000), model };
  if (seen.body.stream !== true) {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(
      JSON.stringify({
        ...base,
        object: "chat.completion",
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: text || null,
              ...(calls.length
                ? {
                    tool_calls: calls.map((c) => ({
                      id: c.id,
                      type: "function",
                      function: { name: c.name, arguments: JSON.stringify(c.input) },
                    })),
                  }
                : {}),
            },
            finish_reason: finish,
          },
        ],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      }),
    );
    return;
  }
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    res.write(`data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices, ...extra })}\n\n`);
  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]);
  for (const piece of text ? pieces(text) : []) {
    chunk([{ index: 0, delta: { content: piece }, finish_reason: null }]);
    if (step.kind === "text" && step.delayMs) await sleep(step.delayMs);
  }
  if (step.kind === "stall") return;
  if (step.kind === "cut") {
    await sleep(100);
    res.socket?.destroy();
    return;
  }
  if (step.kind === "error-event") {
    res.write(`data: ${JSON.stringify({ error: { message: "The server had an error", type: "server_error" } })}\n\n`);
    res.end();
    return;
  }
  calls.forEach((call, i) => {
    const json = JSON.stringify(call.input);
    chunk([
      {
        index: 0,
        delta: { tool_calls: [{ index: i, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] },
        finish_reason: null,
      },
    ]);
    chunk([{ index: 0, delta: { tool_calls: [{ index: i, function: { arguments: json } }] }, finish_reason: null }]);
  });
  chunk([{ index: 0, delta: {}, finish_reason: finish }]);
  chunk([], { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } });
  res.write("data: [DONE]\n\n");
  res.end();
}

/** A server's environment pointing both providers at a fake (keys, base URLs, models, a short timeout). */
export function fakeAiEnv(url: string): Record<string, string> {
  return {
    ANTHROPIC_API_KEY: "sk-ant-test",
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_MODEL: "claude-test",
    OPENAI_API_KEY: "sk-openai-test",
    OPENAI_BASE_URL: `${url}/v1`,
    OPENAI_MODEL: "gpt-test",
    AI_REQUEST_TIMEOUT_MS: "2500",
  };
}

/** Both protocols on one port: /v1/messages (Anthropic) and /v1/chat/completions (OpenAI). */
export async function startFakeAi(options: { port?: number; host?: string } = {}): Promise<FakeAi> {
  const requests: SeenRequest[] = [];
  const waiters = new Set<{ match: (seen: SeenRequest) => boolean; resolve: (seen: SeenRequest) => void }>();
  let queue: Step[] = [];
  let obeying = false;
  let count = 0;
  const sockets = new Set<Socket>();
  const server = http.createServer(async (req, res) => {
    try {
      if (req.method === "GET" && req.url === "/healthz") {
        res.writeHead(200, { "Content-Type": "text/plain" });
        res.end("ok");
        return;
      }
      const path = (req.url ?? "").split("?")[0];
      const protocol = path === "/v1/messages" ? "anthropic" : path === "/v1/chat/completions" ? "openai" : null;
      if (req.method !== "POST" || !protocol) {
        res.writeHead(404, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: "Not found" } }));
        return;
      }
      const raw = await readBody(req);
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        res.writeHead(400, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "invalid JSON" } }));
        return;
      }
      const seen = protocol === "anthropic" ? anthropicView(body, req.headers) : openAiView(body, req.headers);
      if (typeof seen === "string") {
        res.writeHead(400, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: seen } }));
        return;
      }
      requests.push(seen);
      for (const waiter of waiters) {
        if (!waiter.match(seen)) continue;
        waiters.delete(waiter);
        waiter.resolve(seen);
      }
      const n = ++count;
      const step = queue.shift() ?? (obeying ? obeyingBrain(seen) : keywordBrain(seen));
      if (protocol === "anthropic") await answerAnthropic(res, seen, step, n);
      else await answerOpenAi(res, seen, step, n);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "api_error", message: String(error) } }));
    }
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    script: (...steps) => queue.push(...steps),
    obey: (on) => {
      obeying = on;
    },
    received: (match) => {
      const seen = requests.find(match);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.add({ match, resolve }));
    },
    reset: () => {
      queue = [];
      obeying = false;
      requests.length = 0;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
