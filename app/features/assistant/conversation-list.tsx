import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { RowAction, RowConfirmStep } from "~/features/admin/row-action";
import { buttonClass } from "~/styles/recipes";
import * as ui from "~/styles/ui.css";
import { formatDateTime } from "~/utils/dates";
import type { ShellData } from "./view";
import * as css from "./assistant.css";

/** The assistant tab's sidebar: a new conversation, the past ones, each deletable after a confirmation. */
export function ConversationList({ shell, currentId }: { shell: ShellData; currentId: number | null }) {
  const { t, i18n } = useTranslation("assistant");
  const { t: tl } = useTranslation("lists");
  const deleteQuestion = (title: string) => ({
    question: tl("confirm.deleteConversation", { title }),
    yes: tl("confirm.yesDelete"),
    testId: "delete-conversation-confirm",
  });
  return (
    <aside className={css.sidebar} aria-labelledby="conversations-heading">
      <h2 id="conversations-heading" className={css.sidebarHeading}>
        {t("conversations.heading")}
      </h2>
      <Link to="/admin/assistant" className={buttonClass({ tone: "secondary", size: "small" })}>
        {t("conversations.new")}
      </Link>
      {shell.confirming ? (
        <RowConfirmStep
          intent="delete-conversation"
          id={shell.confirming.id}
          extra={{ conversation_id: String(shell.confirming.id) }}
          confirm={deleteQuestion(shell.confirming.title)}
          cancelTo={shell.confirming.back}
        />
      ) : null}
      {shell.conversations.length === 0 ? (
        <p className={ui.muted}>{t("conversations.empty")}</p>
      ) : (
        <ul className={css.conversationList}>
          {shell.conversations.map((c) => (
            <li key={c.id} className={css.conversationItem} data-testid="conversation-item">
              <div className={css.conversationText}>
                <Link
                  to={`/admin/assistant/${c.id}`}
                  className={css.conversationLink}
                  aria-current={currentId === c.id ? "page" : undefined}
                >
                  {c.title}
                </Link>
                <span className={ui.hint}>
                  {formatDateTime(c.updated_at, i18n.language)} ·{" "}
                  {t("conversations.meta", { provider: c.provider, tokens: c.input_tokens + c.output_tokens })}
                </span>
              </div>
              <RowAction
                intent="delete-conversation"
                id={c.id}
                extra={{ conversation_id: String(c.id) }}
                tone="danger"
                label={t("conversations.delete")}
                accessibleName={t("conversations.deleteLabel", { title: c.title })}
                confirm={deleteQuestion(c.title)}
              />
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}
