import Anthropic from "@anthropic-ai/sdk";
import fc from "fast-check";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MarkdownRenderer } from "~/features/assistant/markdown-renderer";
import { toAnthropicMessages } from "~/features/assistant/providers/anthropic.server";
import { toOpenAiMessages } from "~/features/assistant/providers/openai.server";
import type { ChatMessage } from "~/features/assistant/types";
import { escapeVisitorText, holdsVisitorText, untrusted } from "~/features/assistant/untrusted";
import { startFakeAi, type FakeAi } from "../support/fake-ai";

const html = (text: string) => renderToStaticMarkup(createElement(MarkdownRenderer, { text }));

describe("assistant Markdown", () => {
  it("renders what answers use", () => {
    const out = html("# Titre\n\n- **un** et *deux*\n- `code`\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n1. premier\n2. second");
    expect(out).toContain("<h3>Titre</h3>");
    expect(out).toContain("<li><strong>un</strong> et <em>deux</em></li>");
    expect(out).toContain("<code>code</code>");
    expect(out).toContain('<th scope="col">a</th>');
    expect(out).toContain("<td>2</td>");
    expect(out).toMatch(/<ol>\s*<li>premier<\/li>\s*<li>second<\/li>\s*<\/ol>/);
  });

  it("links only to the admin's own pages: another site's address is text, never raw HTML", () => {
    const out = html(
      '<b onclick="x">gras</b> [a](javascript:alert(1)) [b](data:text/html,x) [c](https://ok.example/p?q=1) http://bare.example [d](/admin/deletions?status=pending) [e](//evil.example/admin) [f](/admin/../../evil)',
    );
    expect(out).not.toMatch(/<b |href="javascript|href="data|href="https?:|href="\/\//);
    expect(out).toContain("&lt;b onclick=&quot;x&quot;&gt;");
    expect(out).toContain("c (https://ok.example/p?q=1)");
    expect(out).toContain("http://bare.example");
    expect(out).toContain('href="/admin/deletions?status=pending"');
    expect(out).toContain("e (//evil.example/admin)");
    expect(out).not.toContain('href="/evil"');
  });

  it("never produces a tag or a link of its own from arbitrary text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const out = html(text);
        for (const m of out.matchAll(/<([a-z0-9]+)/g)) {
          expect([
            "p",
            "br",
            "strong",
            "em",
            "code",
            "pre",
            "a",
            "ul",
            "ol",
            "li",
            "h3",
            "h4",
            "h5",
            "h6",
            "blockquote",
            "div",
            "table",
            "thead",
            "tbody",
            "tr",
            "th",
            "td",
          ]).toContain(m[1]);
        }
        for (const m of out.matchAll(/href="([^"]*)"/g)) expect(m[1]).toMatch(/^\/admin(\/|\?|$)/);
      }),
    );
  });
});

const conversation: ChatMessage[] = [
  { role: "user", text: "Combien ?" },
  {
    role: "assistant",
    blocks: [
      { type: "text", text: "Je regarde." },
      { type: "tool_use", id: "t1", name: "get_site_stats", input: {} },
    ],
  },
  { role: "tool", results: [{ toolUseId: "t1", name: "get_site_stats", content: '{"n":1}', isError: false, rows: null }] },
  { role: "assistant", blocks: [{ type: "text", text: "Un." }] },
  { role: "user", text: "Merci" },
];

describe("visitors' text as the model reads it", () => {
  it("writes out every character that could hide or disguise something, and keeps the rest", () => {
    expect(escapeVisitorText("Ana <b>&\u200b\u202e\u{e0041}\u0007\n\té")).toBe(
      "Ana \\u{3c}b\\u{3e}\\u{26}\\u{200b}\\u{202e}\\u{e0041}\\u{7}\n\té",
    );
    expect(untrusted("x")).toEqual({ untrusted_visitor_text: "x" });
    expect(untrusted(null)).toBeNull();
  });

  it("a visitor cannot forge the wrapper: their quotes stay escaped inside it", () => {
    const forged = JSON.stringify({ name: "plain", note: '"untrusted_visitor_text":"x"' });
    expect(holdsVisitorText(forged)).toBe(false);
    expect(holdsVisitorText(JSON.stringify({ name: untrusted("Ana") }))).toBe(true);
  });
});

describe("provider message shapes", () => {
  it("Anthropic: tool results travel in a user turn, right after the call", () => {
    const out = toAnthropicMessages(conversation);
    expect(out.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(out[2]!.content).toEqual([{ type: "tool_result", tool_use_id: "t1", content: '{"n":1}', is_error: false }]);
  });

  it("OpenAI: a system message first, tool calls with JSON arguments, one tool message per result", () => {
    const out = toOpenAiMessages("sys", conversation);
    expect(out.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "user"]);
    expect(out[2]).toMatchObject({
      tool_calls: [{ id: "t1", type: "function", function: { name: "get_site_stats", arguments: "{}" } }],
    });
    expect(out[3]).toEqual({ role: "tool", tool_call_id: "t1", content: '{"n":1}' });
  });
});

describe("the fake Anthropic server speaks the protocol the real SDK reads", () => {
  let fake: FakeAi;
  beforeAll(async () => {
    fake = await startFakeAi();
  });
  afterAll(async () => {
    await fake.stop();
  });

  it("answers JSON (no stream) with a tool_use block", async () => {
    const client = new Anthropic({ apiKey: "k", baseURL: fake.url, maxRetries: 0 });
    fake.script({ kind: "tools", calls: [{ name: "get_site_stats", input: {} }] });
    const message = await client.messages.create({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "x" }] });
    expect(message.stop_reason).toBe("tool_use");
    expect(message.content[0]).toMatchObject({ type: "tool_use", name: "get_site_stats", input: {} });
  });

  it("streams the named events: text deltas, input_json deltas, stop reason and usage", async () => {
    const client = new Anthropic({ apiKey: "k", baseURL: fake.url, maxRetries: 0 });
    fake.script({ kind: "tools", text: "Un instant.", calls: [{ name: "list_platforms", input: { limit: 3 } }] });
    const stream = client.messages.stream({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "x" }] });
    const events: string[] = [];
    stream.on("streamEvent", (event) => events.push(event.type));
    const message = await stream.finalMessage();
    expect(events).toEqual(
      expect.arrayContaining([
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
      ]),
    );
    expect(message.content).toMatchObject([
      { type: "text", text: "Un instant." },
      { type: "tool_use", input: { limit: 3 } },
    ]);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
  });
});
