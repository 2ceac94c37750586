import { runWrite } from "~db/availability.server";
import { parseIntent } from "~/utils/intent.server";
import { parseWithZod } from "@conform-to/zod";
import { data, redirect } from "@remix-run/node";
import { deleteConversation, getConversation, listConversations } from "~db/repositories/assistant.server";
import { askToConfirm, confirmationAsked, isConfirmed } from "~/utils/confirmation.server";
import { currentListHref } from "~/utils/paging.server";
import { getLanguage, getT } from "~/i18n/i18next.server";
import { requireAdmin } from "~/utils/auth.server";
import { badRequest, notFound } from "~/utils/responses.server";
import { redirectWithToast } from "~/utils/toast.server";
import { defaultProvider, providerStatuses, readBudget } from "./config.server";
import { runExchange, type ExchangeFailure } from "./exchange.server";
import { deleteSchema, MESSAGE_MAX, sendSchema } from "./schemas";
import { loadMarkdown } from "./markdown";
import { loadTranscript } from "./transcript.server";
import type { ProviderId, StreamEvent } from "./types";
import { readFormData } from "~/utils/form-data.server";

/** What the assistant's routes share: the page's data, the form post, and the streaming endpoint. */

export async function loadAssistantShell(request: Request) {
  const admin = await requireAdmin(request);
  // Every assistant page (a conversation's too: this is its parent's loader) renders answers as Markdown.
  await loadMarkdown();
  const [conversations, budget, provider, t] = await Promise.all([
    listConversations(admin.id),
    readBudget(),
    defaultProvider(),
    getT(request, "assistant"),
  ]);
  const asked = confirmationAsked(request, "delete-conversation");
  const confirming = conversations.find((c) => c.id === asked);
  return {
    conversations,
    confirming: confirming ? { id: confirming.id, title: confirming.title, back: currentListHref(new URL(request.url)) } : null,
    budget,
    defaultProvider: provider,
    providers: providerStatuses(),
    meta: { title: t("title"), description: t("description"), path: "/admin/assistant", noindex: true },
  };
}

export async function loadConversationPage(request: Request, rawId: string | undefined) {
  const admin = await requireAdmin(request);
  const id = Number(rawId);
  const conversation = Number.isSafeInteger(id) && id > 0 ? await getConversation(id, admin.id) : undefined;
  if (!conversation) throw await notFound(request, "assistant:errors.notFound");
  const t = await getT(request, "assistant");
  const transcript = await loadTranscript(conversation.id);
  // `?proposal=` asks the second step of a card without JavaScript: only an open, destructive card has one.
  const asked = new URL(request.url).searchParams.get("proposal");
  const confirmable = transcript.some(
    (item) =>
      item.kind === "answer" &&
      item.parts.some(
        (p) => p.kind === "tool" && p.proposal?.id === asked && p.proposal.state === "open" && p.proposal.destructive,
      ),
  );
  return {
    conversation: { id: conversation.id, title: conversation.title, provider: conversation.provider },
    transcript,
    confirmingProposal: confirmable ? asked : null,
    meta: {
      title: `${conversation.title} · ${t("title")}`,
      description: t("description"),
      path: `/admin/assistant/${id}`,
      noindex: true,
    },
  };
}

/** What a rejected or failed post shows: the message kept, and why. */
export interface AssistantActionData {
  message: string;
  provider: string;
  conversationId: number | null;
  /** A translation key of the assistant namespace, with its values. */
  error: { key: string; values?: Record<string, string | number> } | null;
  /** The provider call failed: the page shows the toast and the error bubble. */
  failed: boolean;
}

const STATUS: Record<ExchangeFailure, number> = {
  "no-key": 400,
  budget: 429,
  busy: 409,
  "not-found": 404,
  provider: 502,
  unavailable: 503,
};

async function failureMessage(failure: ExchangeFailure, provider: ProviderId): Promise<AssistantActionData["error"]> {
  switch (failure) {
    case "no-key": {
      const status = providerStatuses().find((p) => p.id === provider)!;
      return { key: "noKey", values: { provider, variable: status.keyVariable } };
    }
    case "budget": {
      const budget = await readBudget();
      return { key: "budget.exhausted", values: { used: budget.used, limit: budget.limit } };
    }
    case "busy":
      return { key: "errors.busy" };
    case "not-found":
      return { key: "errors.notFound" };
    case "provider":
      return { key: "errors.bubble" };
    case "unavailable":
      return { key: "errors.unavailable" };
  }
}

/** The form post (no JavaScript): the whole exchange runs here, then 303 to the conversation. */
export async function handleAssistantPost(request: Request) {
  const admin = await requireAdmin(request);
  const form = await readFormData(request);
  const intent = await parseIntent(request, form, ["send", "delete-conversation"] as const);
  const kept = (conversationId: number | null): Omit<AssistantActionData, "error" | "failed"> => ({
    message: String(form.get("message") ?? "").slice(0, MESSAGE_MAX * 2),
    provider: String(form.get("provider") ?? ""),
    conversationId,
  });
  if (intent === "delete-conversation") {
    const parsed = deleteSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) throw await badRequest(request);
    if (!isConfirmed(form)) {
      return askToConfirm(currentListHref(new URL(request.url)), "delete-conversation", parsed.data.conversation_id);
    }
    if (!(await runWrite("assistant-delete", () => deleteConversation(parsed.data.conversation_id, admin.id))))
      throw await notFound(request, "assistant:errors.notFound");
    return redirectWithToast("/admin/assistant", { type: "success", key: "assistant:conversations.deleted" });
  }
  const submission = parseWithZod(form, { schema: sendSchema });
  const rawId = Number(form.get("conversation_id"));
  const conversationId = Number.isSafeInteger(rawId) && rawId > 0 ? rawId : null;
  if (submission.status !== "success") {
    const first = Object.values(submission.error ?? {}).flat()[0] ?? "errors.empty";
    return data<AssistantActionData>(
      { ...kept(conversationId), error: { key: first, values: { max: MESSAGE_MAX } }, failed: false },
      { status: 400 },
    );
  }
  const { message, provider } = submission.value;
  const outcome = await runExchange({
    userId: admin.id,
    conversationId: submission.value.conversation_id ?? null,
    providerId: provider,
    message,
    language: await getLanguage(request),
    signal: request.signal,
  });
  if (outcome.ok) return redirect(`/admin/assistant/${outcome.conversationId}`, 303);
  return data<AssistantActionData>(
    {
      ...kept(conversationId),
      error: await failureMessage(outcome.failure, provider),
      failed: outcome.failure === "provider",
    },
    { status: STATUS[outcome.failure], headers: outcome.failure === "unavailable" ? { "Retry-After": "5" } : undefined },
  );
}

/**
 * The same exchange for the page with JavaScript: the answer streams back as JSON lines
 * (StreamEvent) while it is written; a failure is the last line.
 */
export async function streamAssistantAnswer(request: Request): Promise<Response> {
  const admin = await requireAdmin(request);
  const form = await readFormData(request);
  const submission = parseWithZod(form, { schema: sendSchema });
  if (submission.status !== "success") {
    const first = Object.values(submission.error ?? {}).flat()[0] ?? "errors.empty";
    return Response.json({ error: { key: first, values: { max: MESSAGE_MAX } } }, { status: 400 });
  }
  const language = await getLanguage(request);
  const encoder = new TextEncoder();
  const { message, provider } = submission.value;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let open = true;
      const send = (event: StreamEvent | { type: "error"; failure: ExchangeFailure; error: AssistantActionData["error"] }) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
        } catch {
          open = false;
        }
      };
      send({ type: "start" });
      try {
        const outcome = await runExchange({
          userId: admin.id,
          conversationId: submission.value.conversation_id ?? null,
          providerId: provider,
          message,
          language,
          signal: request.signal,
          emit: send,
        });
        if (!outcome.ok)
          send({ type: "error", failure: outcome.failure, error: await failureMessage(outcome.failure, provider) });
      } catch (error) {
        console.error("assistant: exchange failed", error);
        send({ type: "error", failure: "provider", error: { key: "errors.bubble" } });
      } finally {
        open = false;
        try {
          controller.close();
        } catch {
          // the client is gone
        }
      }
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Accel-Buffering": "no",
    },
  });
}
