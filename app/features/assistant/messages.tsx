import { Form, useLocation } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { CONFIRM_FIELD, ConfirmDialog, ConfirmStep, Field, HiddenFields } from "~/components/forms";
import { useHydrated } from "remix-utils/use-hydrated";
import { buttonClass } from "~/styles/recipes";
import * as ui from "~/styles/ui.css";
import * as layoutCss from "~/styles/layout.css";
import * as css from "./assistant.css";
import { Markdown } from "./markdown";
import { EXCHANGE_CAPS, PROPOSAL_MINUTES } from "./caps";
import type { StopReason, StreamEvent } from "./types";
import type { AnswerPart, ProposalView } from "./view";

const STOP_VALUES = {
  rounds: EXCHANGE_CAPS.rounds,
  toolCalls: EXCHANGE_CAPS.toolCalls,
  resultChars: EXCHANGE_CAPS.resultChars,
  proposals: EXCHANGE_CAPS.proposals,
  tokens: EXCHANGE_CAPS.tokens,
};

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

/** The rows a card acts on, as read when the page was drawn; what visitors wrote is quoted text, never a link. */
function SourceRows({ rows }: { rows: ProposalView["rows"] }) {
  const { t } = useTranslation("assistant");
  return (
    <>
      {rows.map((row) => (
        <div key={`${row.table}-${row.id}`} className={css.sourceRow} data-testid="proposal-row" data-table={row.table}>
          <p className={`${ui.hint} ${css.flush}`}>{t("proposal.row", { table: row.table, id: row.id })}</p>
          <dl className={css.sourceFields}>
            {row.fields.map((field) => (
              <div key={field.name} className={css.sourceField}>
                <dt>
                  {t(`proposal.fields.${field.name}`)}
                  {field.visitor ? <span className={css.visitorBadge}> {t("proposal.byVisitor")}</span> : null}
                </dt>
                <dd data-visitor={field.visitor ? "true" : undefined}>{field.visitor ? <q>{field.value}</q> : field.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      ))}
    </>
  );
}

function ProposalCard({ proposal, confirming }: { proposal: ProposalView; confirming: boolean }) {
  const { t } = useTranslation("assistant");
  const { t: ta } = useTranslation("admin");
  const hydrated = useHydrated();
  const location = useLocation();
  const id = useId();
  const { editable } = proposal;
  const summary = t(`proposal.${proposal.action}`, proposal.target);
  const question = {
    question: t("proposal.confirmQuestion", { action: summary }),
    yes: t("proposal.confirmYes"),
    testId: "proposal-confirm",
  };
  const post = (label: string, confirmed: boolean, onSubmit?: () => void) => (
    // A whole-page post, as from the admin tab itself: its page then renders with all its texts.
    <Form method="post" action={proposal.formAction} reloadDocument className={css.tight} onSubmit={onSubmit}>
      <HiddenFields fields={confirmed ? { ...proposal.fields, [CONFIRM_FIELD]: "yes" } : proposal.fields} />
      {editable ? (
        <Field id={`${id}-value`} label={t("proposal.newValue")}>
          {(control) => <input {...control} className={ui.input} name={editable.name} defaultValue={editable.value} />}
        </Field>
      ) : null}
      <button type="submit" className={buttonClass({ tone: confirmed ? "danger" : "primary", size: "small" })}>
        {label}
      </button>
    </Form>
  );
  return (
    <div
      className={css.proposal}
      data-testid="proposal-card"
      data-action={proposal.action}
      data-state={proposal.state}
      data-destructive={proposal.destructive ? "true" : undefined}
      id={`proposal-${proposal.id}`}
    >
      <p className={css.flush}>
        <strong>{t("proposal.heading")}</strong> {summary}
      </p>
      <p className={`${ui.muted} ${css.flush}`}>{t("proposal.reason", { reason: proposal.reason })}</p>
      <SourceRows rows={proposal.rows} />
      {proposal.visitorText ? (
        <p className={ui.alert.warning} data-testid="proposal-visitor-text">
          {t("proposal.visitorText")}
        </p>
      ) : null}
      {proposal.state !== "open" ? (
        <p className={`${ui.hint} ${css.flush}`} data-testid="proposal-closed">
          {t(proposal.state === "expired" ? "proposal.expired" : "proposal.closed")}
        </p>
      ) : !proposal.destructive ? (
        <>
          {post(t("proposal.submit"), false)}
          <p className={`${ui.hint} ${css.flush}`}>{t("proposal.note", { minutes: PROPOSAL_MINUTES })}</p>
        </>
      ) : confirming ? (
        // Without JavaScript: the second step, asked through `?proposal=`, holds the real form.
        <ConfirmStep
          fields={proposal.fields}
          confirm={question}
          cancelTo={location.pathname}
          cancelLabel={ta("rowAction.cancel")}
          action={proposal.formAction}
        />
      ) : (
        <>
          {hydrated ? (
            <ConfirmDialog
              trigger={t("proposal.review")}
              triggerClassName={buttonClass({ tone: "primary", size: "small" })}
              title={question.question}
              cancelLabel={ta("rowAction.cancel")}
              testId={question.testId}
              confirm={(close) => post(question.yes, true, close)}
            />
          ) : (
            <Form method="get" action={`${location.pathname}#proposal-${proposal.id}`}>
              <input type="hidden" name="proposal" value={proposal.id} />
              <button type="submit" className={buttonClass({ tone: "primary", size: "small" })}>
                {t("proposal.review")}
              </button>
            </Form>
          )}
          <p className={`${ui.hint} ${css.flush}`}>{t("proposal.noteDestructive", { minutes: PROPOSAL_MINUTES })}</p>
        </>
      )}
    </div>
  );
}

export function Answer({
  parts,
  stop = null,
  live = false,
  confirming = null,
}: {
  parts: AnswerPart[];
  stop?: StopReason | null;
  live?: boolean;
  /** The card whose second step is asked without JavaScript (`?proposal=`). */
  confirming?: string | null;
}) {
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
            {part.proposal ? <ProposalCard proposal={part.proposal} confirming={confirming === part.proposal.id} /> : null}
          </div>
        ),
      )}
      {stop ? (
        <p className={ui.alert.warning} data-testid="assistant-stopped" data-reason={stop}>
          {t(`stopped.${stop}`, STOP_VALUES)}
        </p>
      ) : null}
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
