import { Form } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Field, HiddenFields } from "~/components/forms";
import { buttonClass } from "~/styles/recipes";
import * as ui from "~/styles/ui.css";
import * as layoutCss from "~/styles/layout.css";
import * as css from "./assistant.css";
import { Markdown } from "./markdown";
import type { StreamEvent } from "./types";
import type { AnswerPart, ProposalView } from "./view";

/** The pieces of a conversation the assistant tab shows: messages, tool calls, proposals, a failure's toast. */

function ToolCall({ part }: { part: Extract<AnswerPart, { kind: "tool" }> }) {
  const { t } = useTranslation("assistant");
  const outcome = part.pending
    ? t("toolCall.running")
    : part.isError
      ? t("toolCall.error")
      : part.rows !== null
        ? t("toolCall.rows", { count: part.rows })
        : null;
  return (
    <details
      className={css.toolCall}
      data-testid="tool-call"
      data-tool={part.name}
      data-rows={part.rows ?? undefined}
      data-error={part.isError ? "true" : undefined}
    >
      <summary>
        {t("toolCall.summary", { name: part.name })}
        {outcome ? ` · ${outcome}` : null}
      </summary>
      <p className={`${ui.muted} ${css.toolInputLabel}`}>{t("toolCall.input")}</p>
      <pre>
        <code>{part.input}</code>
      </pre>
    </details>
  );
}

function ProposalCard({ proposal }: { proposal: ProposalView }) {
  const { t } = useTranslation("assistant");
  const id = useId();
  const { editable } = proposal;
  return (
    <div className={css.proposal} data-testid="proposal-card" data-action={proposal.action}>
      <p className={css.flush}>
        <strong>{t("proposal.heading")}</strong> {t(`proposal.${proposal.action}`, proposal.target)}
      </p>
      <p className={`${ui.muted} ${css.flush}`}>{t("proposal.reason", { reason: proposal.reason })}</p>
      {proposal.open ? (
        // A whole-page post, as from the admin tab itself: its page then renders with all its texts.
        <Form method="post" action={proposal.formAction} reloadDocument className={css.tight}>
          <HiddenFields fields={proposal.fields} />
          {editable ? (
            <Field id={`${id}-value`} label={t("proposal.newValue")}>
              {(control) => <input {...control} className={ui.input} name={editable.name} defaultValue={editable.value} />}
            </Field>
          ) : null}
          <div className={ui.row}>
            <button type="submit" className={buttonClass({ tone: "primary", size: "small" })}>
              {t("proposal.submit")}
            </button>
            <span className={ui.hint}>{t("proposal.note")}</span>
          </div>
        </Form>
      ) : (
        <p className={`${ui.hint} ${css.flush}`}>{t("proposal.closed")}</p>
      )}
    </div>
  );
}

export function Answer({ parts, live = false }: { parts: AnswerPart[]; live?: boolean }) {
  const { t } = useTranslation("assistant");
  return (
    <article
      className={css.assistantBubble}
      data-testid={live ? "assistant-live" : "assistant-message"}
      aria-busy={live || undefined}
    >
      <p className={css.speaker}>{t("assistant")}</p>
      {parts.map((part, i) =>
        part.kind === "text" ? (
          <div key={i} className={css.markdown}>
            <Markdown text={part.text} />
          </div>
        ) : (
          <div key={part.id} className={css.tight}>
            <ToolCall part={part} />
            {part.proposal ? <ProposalCard proposal={part.proposal} /> : null}
          </div>
        ),
      )}
    </article>
  );
}

export function UserMessage({ text }: { text: string }) {
  const { t } = useTranslation("assistant");
  return (
    <article className={css.userBubble} data-testid="user-message">
      <p className={css.speaker}>{t("you")}</p>
      {text}
    </article>
  );
}

export function ErrorToast({ text, id }: { text: string; id: string }) {
  return (
    <div className={`${layoutCss.toastRegion} ${css.toastOnTop}`} role="alert" key={id}>
      <div className={`${layoutCss.toast} ${layoutCss.toastError}`} data-testid="toast" data-type="error">
        <p className={css.flush}>{text}</p>
      </div>
    </div>
  );
}

/** Reads the streaming endpoint's JSON lines as they come. */
export async function* readEvents(response: Response): AsyncGenerator<StreamEvent> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line) yield JSON.parse(line) as StreamEvent;
    }
  }
}
