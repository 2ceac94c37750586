import { listConversationMessages } from "~db/repositories/assistant.server";
import { codeForProposal, deletionRequestForProposal, suggestionForProposal } from "~db/repositories/assistant-queries.server";
import { getSettings } from "~db/repositories/settings.server";
import { EXCHANGE_CAPS, PROPOSAL_MINUTES } from "./caps";
import { parseStoredMessage } from "./exchange.server";
import { isDestructive, isProposableSetting, proposeActionSchema } from "./proposals.server";
import type { ChatMessage } from "./types";
import { holdsVisitorText } from "./untrusted";
import type { AnswerPart, ProposalView, SourceRow, TranscriptItem } from "./view";

const PROPOSAL_LIFETIME_MS = PROPOSAL_MINUTES * 60_000;

type Card = Omit<ProposalView, "id" | "reason" | "state" | "visitorText" | "expiresAt" | "destructive"> & { live: boolean };

const when = (iso: string | null | undefined) => (iso ? iso.slice(0, 16).replace("T", " ") : "");

/**
 * A proposal as a card: the rows it acts on, read now, and the ordinary admin form for it. Null
 * for what is never a card (a setting outside the few a card may change), whatever is stored.
 */
async function cardOf(input: unknown): Promise<(Card & { action: ProposalView["action"]; reason: string }) | null> {
  const parsed = proposeActionSchema.safeParse(input);
  if (!parsed.success) return null;
  const p = parsed.data;
  const base = { action: p.action, reason: p.reason };
  switch (p.action) {
    case "deactivate_code": {
      const code = p.id ? await codeForProposal(p.id) : undefined;
      const rows: SourceRow[] = code
        ? [
            {
              table: "referral_codes",
              id: String(code.id),
              fields: [
                { name: "code", value: code.code, visitor: true },
                { name: "platform", value: code.platform_name },
                { name: "active", value: code.is_active === 1 ? "✓" : "✗" },
                { name: "served", value: String(code.times_served) },
                { name: "created", value: when(code.created_at) },
              ],
            },
          ]
        : [];
      return {
        ...base,
        live: code?.is_active === 1,
        target: { code: code?.code ?? `#${p.id}`, platform: code?.platform_name ?? "" },
        rows,
        formAction: "/admin/codes",
        fields: { intent: "toggle-active", id: String(p.id) },
      };
    }
    case "approve_deletion_request":
    case "reject_deletion_request": {
      const request = p.id ? await deletionRequestForProposal(p.id) : undefined;
      const rows: SourceRow[] = request
        ? [
            {
              table: "deletion_requests",
              id: String(request.id),
              fields: [
                { name: "code", value: request.code, visitor: true },
                { name: "platform", value: request.platform_name },
                { name: "reason", value: request.reason ?? "", visitor: true },
                { name: "status", value: request.status },
                { name: "created", value: when(request.created_at) },
                { name: "matchingCodes", value: String(Number(request.matching_codes ?? 0)) },
              ],
            },
          ]
        : [];
      return {
        ...base,
        live: request?.status === "pending",
        target: { code: request?.code ?? `#${p.id}`, platform: request?.platform_name ?? "", reason: request?.reason ?? "" },
        rows,
        formAction: "/admin/deletions",
        fields: { intent: p.action === "approve_deletion_request" ? "approve" : "reject", id: String(p.id) },
      };
    }
    case "reject_suggestion": {
      const suggestion = p.id ? await suggestionForProposal(p.id) : undefined;
      const rows: SourceRow[] = suggestion
        ? [
            {
              table: "platform_suggestions",
              id: String(suggestion.id),
              fields: [
                { name: "name", value: suggestion.name, visitor: true },
                { name: "description", value: suggestion.description ?? "", visitor: true },
                { name: "website", value: suggestion.website_url ?? "", visitor: true },
                { name: "votes", value: String(suggestion.votes_count) },
                { name: "status", value: suggestion.status },
                { name: "created", value: when(suggestion.created_at) },
              ],
            },
          ]
        : [];
      return {
        ...base,
        live: suggestion?.status === "pending",
        target: { name: suggestion?.name ?? `#${p.id}`, votes: String(suggestion?.votes_count ?? 0) },
        rows,
        formAction: "/admin/suggestions",
        fields: { intent: "reject", id: String(p.id) },
      };
    }
    case "change_setting": {
      if (!isProposableSetting(p.key) || p.value === undefined) return null;
      const current = (await getSettings())[p.key];
      return {
        ...base,
        live: current !== p.value,
        target: { key: p.key, current },
        rows: [{ table: "settings", id: p.key, fields: [{ name: "current", value: current }] }],
        formAction: "/admin/settings",
        fields: { intent: "save", key: p.key },
        editable: { name: "value", value: p.value },
      };
    }
  }
}

type StoredMessage = ChatMessage & { createdAt: string };

/**
 * Stored messages as the transcript shows them: each admin message, then one answer holding the
 * assistant's text and its tool calls in order (each with its input and how many rows came back),
 * at most EXCHANGE_CAPS.proposals cards, and why a cap ended it. Only the last answer's cards can
 * be open, for PROPOSAL_LIFETIME_MS after it was stored.
 */
async function buildTranscript(messages: StoredMessage[], now: Date): Promise<TranscriptItem[]> {
  const results = new Map<string, { rows: number | null; isError: boolean }>();
  for (const m of messages) if (m.role === "tool") for (const r of m.results) results.set(r.toolUseId, r);
  const lastUser = messages.reduce((last, m, i) => (m.role === "user" ? i : last), -1);
  const items: TranscriptItem[] = [];
  let answer: Extract<TranscriptItem, { kind: "answer" }> | null = null;
  let answerStart = 0;
  for (const [index, m] of messages.entries()) {
    if (m.role === "user") {
      answer = null;
      answerStart = index + 1;
      items.push({ kind: "user", text: m.text });
      continue;
    }
    if (m.role !== "assistant") continue;
    if (!answer) {
      answer = { kind: "answer", parts: [], stop: null };
      items.push(answer);
    }
    if (m.stop) answer.stop = m.stop;
    for (const block of m.blocks) {
      if (block.type === "text") {
        if (block.text.trim()) answer.parts.push({ kind: "text", text: block.text });
        continue;
      }
      const result = results.get(block.id);
      const isError = result?.isError ?? true;
      const part: Extract<AnswerPart, { kind: "tool" }> = {
        kind: "tool",
        id: block.id,
        name: block.name,
        input: JSON.stringify(block.input ?? {}, null, 2),
        rows: result?.rows ?? null,
        isError,
        proposal: null,
      };
      const cards = answer.parts.filter((p) => p.kind === "tool" && p.proposal).length;
      if (block.name === "propose_action" && !isError && cards < EXCHANGE_CAPS.proposals) {
        const card = await cardOf(block.input);
        if (card) {
          // The answer's own exchange: from its admin message to the next one.
          const end = messages.findIndex((x, i) => i >= answerStart && x.role === "user");
          const exchange = messages.slice(answerStart, end === -1 ? undefined : end);
          const visitorText = exchange.some(
            (x) => x.role === "tool" && x.results.some((r) => r.untrusted ?? holdsVisitorText(r.content)),
          );
          const expiresAt = new Date(Date.parse(m.createdAt) + PROPOSAL_LIFETIME_MS);
          const current = answerStart > lastUser && expiresAt > now;
          const { live, ...rest } = card;
          part.proposal = {
            ...rest,
            id: block.id,
            state: !live ? "done" : current ? "open" : "expired",
            destructive: isDestructive(card.action),
            visitorText,
            expiresAt: live && current ? expiresAt.toISOString() : null,
          };
        }
      }
      answer.parts.push(part);
    }
  }
  return items;
}

export async function loadTranscript(conversationId: number, now = new Date()): Promise<TranscriptItem[]> {
  const rows = await listConversationMessages(conversationId);
  return buildTranscript(
    rows.flatMap((row) => {
      const message = parseStoredMessage(row);
      return message ? [{ ...message, createdAt: row.created_at }] : [];
    }),
    now,
  );
}
