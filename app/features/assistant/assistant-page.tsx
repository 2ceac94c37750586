import { getZodConstraint } from "@conform-to/zod";
import { Form, useLocation, useNavigate, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { buttonClass } from "~/styles/recipes";
import * as ui from "~/styles/ui.css";
import { chosenBeforeHydration } from "~/utils/typed-before-hydration";
import { useHydrated } from "remix-utils/use-hydrated";
import { useHydrationRender } from "~/utils/use-hydrated";
import * as css from "./assistant.css";
import { ConversationList } from "./conversation-list";
import { Answer, ErrorToast, readEvents, UserMessage } from "./messages";
import { MESSAGE_MAX, sendSchema } from "./schemas";
import type { ProviderId } from "./types";
import type { AnswerPart, PageActionData, ShellData, TranscriptItem } from "./view";

const constraint = getZodConstraint(sendSchema);
/** The provider select's id: where hydration finds a choice made before the script ran. */
const PROVIDER_SELECT = "assistant-provider";

interface LiveExchange {
  userText: string;
  parts: AnswerPart[];
  /** Set once stored: the page moves to the conversation, then the live copy goes. */
  doneId: number | null;
}

interface ClientError {
  toast: string;
  bubble: boolean;
  id: string;
}

/**
 * The assistant tab: past conversations, the 600 px chat panel, and the composer. Without JS the
 * composer is a plain form post; with JS the answer streams in as it is written.
 */
export function AssistantPage({
  shell,
  conversation,
  transcript,
  actionData,
  confirmingProposal = null,
}: {
  shell: ShellData;
  conversation: { id: number; title: string; provider: ProviderId } | null;
  transcript: TranscriptItem[];
  actionData?: PageActionData;
  /** The card whose second step is asked without JavaScript (`?proposal=`). */
  confirmingProposal?: string | null;
}) {
  const { t } = useTranslation("assistant");
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const location = useLocation();
  const panelRef = useRef<HTMLElement>(null);
  const textareaRef = useRef<HTMLTextAreaElement>(null);

  const initialProvider =
    (actionData?.provider as ProviderId | undefined) && shell.providers.some((p) => p.id === actionData?.provider)
      ? (actionData!.provider as ProviderId)
      : (conversation?.provider ?? shell.defaultProvider);
  const hydrating = useHydrationRender();
  const [provider, setProvider] = useState<ProviderId>(() =>
    hydrating
      ? chosenBeforeHydration(
          PROVIDER_SELECT,
          initialProvider,
          shell.providers.map((p) => p.id),
        )
      : initialProvider,
  );
  const [busy, setBusy] = useState(false);
  const [live, setLive] = useState<LiveExchange | null>(null);
  const [clientError, setClientError] = useState<ClientError | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);

  const status = shell.providers.find((p) => p.id === provider) ?? shell.providers[0]!;
  const anyConfigured = shell.providers.some((p) => p.configured);
  // Without JS the select cannot re-enable the button: only "no provider at all" disables it there.
  const canSend = hydrated ? status.configured && !shell.budget.exhausted : anyConfigured && !shell.budget.exhausted;
  const postPath = conversation ? `/admin/assistant/${conversation.id}` : "/admin/assistant";

  // Once the stored conversation is on screen, the live copy goes.
  useEffect(() => {
    if (live?.doneId && conversation?.id === live.doneId && navigation.state === "idle" && revalidator.state === "idle") {
      setLive(null);
    }
  }, [live, conversation?.id, navigation.state, revalidator.state, transcript]);

  // Keep the newest words in view.
  useEffect(() => {
    const panel = panelRef.current;
    if (panel) panel.scrollTop = panel.scrollHeight;
  }, [transcript, live, clientError]);

  const showServerError = !clientError && actionData?.error;
  const serverFailed = !clientError && actionData?.failed;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (!hydrated) return;
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const formData = new FormData(form);
    const message = String(formData.get("message") ?? "");
    if (!message.trim()) {
      setFieldError(t("errors.empty"));
      return;
    }
    if (message.trim().length > MESSAGE_MAX) {
      setFieldError(t("errors.tooLong", { max: MESSAGE_MAX }));
      return;
    }
    setFieldError(null);
    setClientError(null);
    setBusy(true);
    setLive({ userText: message.trim(), parts: [], doneId: null });
    if (textareaRef.current) textareaRef.current.value = "";

    const fail = (toast: string, bubble: boolean) => {
      setLive(null);
      setClientError({ toast, bubble, id: crypto.randomUUID() });
      // The message is kept, ready to be sent again.
      if (textareaRef.current) textareaRef.current.value = message;
    };
    let finished = false;
    try {
      const response = await fetch("/admin/assistant/stream", {
        method: "POST",
        // Urlencoded, as the form posts without JavaScript: the server reads multipart only for uploads.
        body: new URLSearchParams(formData as unknown as Record<string, string>),
        headers: { Accept: "application/x-ndjson" },
      });
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => null)) as {
          error?: { key: string; values?: Record<string, string | number> };
        } | null;
        fail(body?.error ? t(body.error.key, body.error.values) : t("errors.toast"), !body?.error);
        return;
      }
      for await (const event of readEvents(response)) {
        if (event.type === "text") {
          setLive((prev) => {
            if (!prev) return prev;
            const parts = [...prev.parts];
            const last = parts[parts.length - 1];
            if (last?.kind === "text") parts[parts.length - 1] = { kind: "text", text: last.text + event.delta };
            else parts.push({ kind: "text", text: event.delta });
            return { ...prev, parts };
          });
        } else if (event.type === "tool-call") {
          setLive((prev) =>
            prev
              ? {
                  ...prev,
                  parts: [
                    ...prev.parts,
                    {
                      kind: "tool",
                      id: event.id,
                      name: event.name,
                      input: JSON.stringify(event.input ?? {}, null, 2),
                      rows: null,
                      isError: false,
                      pending: true,
                      proposal: null,
                    },
                  ],
                }
              : prev,
          );
        } else if (event.type === "tool-result") {
          setLive((prev) =>
            prev
              ? {
                  ...prev,
                  parts: prev.parts.map((p) =>
                    p.kind === "tool" && p.id === event.id
                      ? { ...p, rows: event.rows, isError: event.isError, pending: false }
                      : p,
                  ),
                }
              : prev,
          );
        } else if (event.type === "done") {
          finished = true;
          setLive((prev) => (prev ? { ...prev, doneId: event.conversationId } : prev));
          const target = `/admin/assistant/${event.conversationId}`;
          if (location.pathname === target) revalidator.revalidate();
          else navigate(target);
        } else if (event.type === "error") {
          finished = true;
          if (event.failure === "provider" || !event.error) fail(t("errors.toast"), true);
          else fail(t(event.error.key, event.error.values), false);
        }
      }
      if (!finished) fail(t("errors.toast"), true);
    } catch {
      fail(t("errors.toast"), true);
    } finally {
      setBusy(false);
    }
  }

  const errorText = clientError?.toast ?? (showServerError ? t(actionData!.error!.key, actionData!.error!.values) : null);
  const toastText = clientError ? clientError.toast : serverFailed ? t("errors.toast") : showServerError ? errorText : null;
  const bubble = clientError ? clientError.bubble : Boolean(serverFailed);

  return (
    <div className={css.layout}>
      <ConversationList shell={shell} currentId={conversation?.id ?? null} />
      <div className={css.main}>
        <h2 className={css.heading}>{conversation ? conversation.title : t("title")}</h2>
        <section
          ref={panelRef}
          className={css.panel}
          aria-label={t("title")}
          aria-live="polite"
          data-testid="assistant-panel"
          // A scrolling region must be reachable by keyboard (axe: scrollable-region-focusable).
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
          tabIndex={0}
        >
          <article className={css.assistantBubble} data-testid="assistant-greeting">
            <p className={css.speaker}>{t("assistant")}</p>
            <p className={css.flush}>{t("greeting")}</p>
          </article>
          {transcript.map((item, i) =>
            item.kind === "user" ? (
              <UserMessage key={i} text={item.text} />
            ) : (
              <Answer key={i} parts={item.parts} stop={item.stop} confirming={confirmingProposal} />
            ),
          )}
          {live ? (
            <>
              <UserMessage text={live.userText} />
              {live.parts.length > 0 ? <Answer parts={live.parts} live /> : null}
              {busy && live.parts.length === 0 ? (
                <p className={`${ui.row} ${ui.muted}`} data-testid="assistant-pending" role="status">
                  <span className={css.spinner} aria-hidden="true" /> {t("pending")}
                </p>
              ) : null}
            </>
          ) : null}
          {bubble ? (
            <article className={css.errorBubble} data-testid="assistant-error">
              <p className={css.speaker}>{t("assistant")}</p>
              {t("errors.bubble")}
            </article>
          ) : null}
        </section>
        {toastText ? <ErrorToast text={toastText} id={clientError?.id ?? "server"} /> : null}

        {!status.configured ? (
          <p className={ui.alert.warning} data-testid="assistant-no-key" role="status">
            {t("noKey", { provider: t(`providers.${status.id}`), variable: status.keyVariable })}
          </p>
        ) : null}
        {shell.budget.exhausted ? (
          <p className={ui.alert.warning} data-testid="assistant-budget-exhausted" role="status">
            {t("budget.exhausted", { used: shell.budget.used, limit: shell.budget.limit })}
          </p>
        ) : null}

        <Form method="post" action={postPath} className={css.composer} onSubmit={onSubmit} data-testid="assistant-form">
          <input type="hidden" name="intent" value="send" />
          <input type="hidden" name="conversation_id" value={conversation?.id ?? ""} />
          <label htmlFor="assistant-message" className={ui.label}>
            {t("form.label")}
          </label>
          <textarea
            ref={textareaRef}
            id="assistant-message"
            name="message"
            className={`${ui.input} ${css.textarea}`}
            placeholder={t("form.placeholder")}
            required={constraint.message?.required}
            maxLength={MESSAGE_MAX}
            defaultValue={actionData?.message ?? ""}
            key={actionData ? `kept-${actionData.message}` : "empty"}
            aria-invalid={fieldError || (showServerError && !serverFailed) ? true : undefined}
            aria-describedby="assistant-message-error assistant-budget"
            onKeyDown={(e) => {
              // Enter sends, Shift+Enter breaks the line (not while an input method composes).
              if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing && hydrated) {
                e.preventDefault();
                e.currentTarget.form?.requestSubmit();
              }
            }}
          />
          <p id="assistant-message-error" className={ui.fieldError} role="alert" data-testid="assistant-form-error">
            {fieldError ?? (showServerError && !serverFailed ? errorText : null)}
          </p>
          <div className={css.composerRow}>
            <label className={`${ui.label} ${css.providerLabel}`}>
              {t("form.provider")}
              <select
                id={PROVIDER_SELECT}
                name="provider"
                className={`${ui.input} ${css.providerSelect}`}
                value={provider}
                onChange={(e) => setProvider(e.currentTarget.value as ProviderId)}
              >
                {shell.providers.map((p) => (
                  <option key={p.id} value={p.id}>
                    {t(`providers.${p.id}`)} · {p.model}
                    {p.configured ? "" : ` ${t("form.noKeySuffix")}`}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="submit"
              className={buttonClass({ tone: "primary" })}
              disabled={busy || !canSend}
              aria-busy={busy || undefined}
              data-testid="assistant-send"
            >
              {busy ? t("form.sending") : t("form.send")}
            </button>
          </div>
          <p id="assistant-budget" className={`${ui.hint} ${css.flush}`} data-testid="assistant-budget">
            {t("budget.usage", { used: shell.budget.used, limit: shell.budget.limit })}
          </p>
        </Form>
      </div>
    </div>
  );
}
