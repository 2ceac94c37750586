import { listConversationMessages } from "~db/repositories/assistant.server";
import { codeForProposal, deletionRequestForProposal, suggestionForProposal } from "~db/repositories/assistant-queries.server";
import { getSettings } from "~db/repositories/settings.server";
import { parseStoredMessage } from "./exchange.server";
import { proposeActionSchema } from "./proposals.server";
import type { ChatMessage } from "./types";
import type { AnswerPart, ProposalView, TranscriptItem } from "./view";

/** A proposal as a card: the ordinary admin form for it, filled, and whether it still applies. */
async function proposalView(input: unknown): Promise<ProposalView | null> {
  const parsed = proposeActionSchema.safeParse(input);
  if (!parsed.success) return null;
  const p = parsed.data;
  const base = { action: p.action, reason: p.reason };
  switch (p.action) {
    case "deactivate_code": {
      const code = p.id ? await codeForProposal(p.id) : undefined;
      return {
        ...base,
        open: code?.is_active === 1,
        target: { code: code?.code ?? `#${p.id}`, platform: code?.platform_name ?? "" },
        formAction: "/admin/codes",
        fields: { intent: "toggle-active", id: String(p.id) },
      };
    }
    case "approve_deletion_request":
    case "reject_deletion_request": {
      const request = p.id ? await deletionRequestForProposal(p.id) : undefined;
      return {
        ...base,
        open: request?.status === "pending",
        target: { code: request?.code ?? `#${p.id}`, platform: request?.platform_name ?? "", reason: request?.reason ?? "" },
        formAction: "/admin/deletions",
        fields: { intent: p.action === "approve_deletion_request" ? "approve" : "reject", id: String(p.id) },
      };
    }
    case "reject_suggestion": {
      const suggestion = p.id ? await suggestionForProposal(p.id) : undefined;
      return {
        ...base,
        open: suggestion?.status === "pending",
        target: { name: suggestion?.name ?? `#${p.id}`, votes: String(suggestion?.votes_count ?? 0) },
        formAction: "/admin/suggestions",
        // The card itself is the confirmation the suggestions tab would otherwise ask for.
        fields: { intent: "reject", id: String(p.id), confirm: "yes" },
      };
    }
    case "change_setting": {
      if (!p.key || p.value === undefined) return null;
      const settings = await getSettings();
      return {
        ...base,
        open: settings[p.key] !== p.value,
        target: { key: p.key, current: settings[p.key] },
        formAction: "/admin/settings",
        fields: { intent: "save", key: p.key },
        editable: { name: "value", value: p.value },
      };
    }
  }
}

/**
 * Stored messages as the transcript shows them: each admin message, then one answer holding the
 * assistant's text and its tool calls in order (each with its input and how many rows came back).
 */
async function buildTranscript(messages: ChatMessage[]): Promise<TranscriptItem[]> {
  const results = new Map<string, { rows: number | null; isError: boolean }>();
  for (const m of messages) if (m.role === "tool") for (const r of m.results) results.set(r.toolUseId, r);
  const items: TranscriptItem[] = [];
  let answer: AnswerPart[] | null = null;
  for (const m of messages) {
    if (m.role === "user") {
      answer = null;
      items.push({ kind: "user", text: m.text });
      continue;
    }
    if (m.role !== "assistant") continue;
    if (!answer) {
      answer = [];
      items.push({ kind: "answer", parts: answer });
    }
    for (const block of m.blocks) {
      if (block.type === "text") {
        if (block.text.trim()) answer.push({ kind: "text", text: block.text });
        continue;
      }
      const result = results.get(block.id);
      const isError = result?.isError ?? true;
      answer.push({
        kind: "tool",
        id: block.id,
        name: block.name,
        input: JSON.stringify(block.input ?? {}, null, 2),
        rows: result?.rows ?? null,
        isError,
        proposal: block.name === "propose_action" && !isError ? await proposalView(block.input) : null,
      });
    }
  }
  return items;
}

export async function loadTranscript(conversationId: number): Promise<TranscriptItem[]> {
  const rows = await listConversationMessages(conversationId);
  return buildTranscript(rows.flatMap((row) => parseStoredMessage(row) ?? []));
}
