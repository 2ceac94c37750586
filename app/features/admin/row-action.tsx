import { Form, Link, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { buttonClass, type ButtonTone } from "~/styles/recipes";
import { alert, row, stack } from "~/styles/ui.css";
import { usePending } from "~/utils/use-pending";
import { useHydrated } from "~/utils/use-hydrated";
import * as admin from "./admin.css";
import { ConfirmDialog } from "./confirm-dialog";
import { errorsOf, FormAlert, formIdOf, type AdminFormReply } from "./forms";

export interface Confirmation {
  /** The question, naming the row ("Delete the score of Ana?"). */
  question: string;
  /** The confirm button's label ("Yes, delete"). */
  yes: string;
  testId?: string;
}

/**
 * One row action: a one-button form posting `intent` + `id` (plus `extra` hidden fields). Works
 * without JavaScript; with it, the button shows it is busy and cannot be pressed twice.
 * With `confirm`, the action asks first: with JS an alert dialog whose button posts `confirm=yes`,
 * without JS the server's confirmation step (confirmation.server.ts, then <ConfirmStep>).
 * A write the database refused (guardWrite) shows its message under the button.
 */
export function RowAction({
  intent,
  id,
  label,
  subject,
  accessibleName: fullName,
  tone = "secondary",
  extra,
  confirm,
  disabled = false,
}: {
  intent: string;
  id: number;
  label: string;
  /** What the row is ("CODE42"): the button's accessible name is the label followed by it. */
  subject?: string;
  /** Or the whole accessible name, where the language puts the subject elsewhere. */
  accessibleName?: string;
  tone?: ButtonTone;
  extra?: Record<string, string>;
  confirm?: Confirmation;
  /** Nothing to do for this row (first row cannot move up): shown, not pressable. */
  disabled?: boolean;
}) {
  const hydrated = useHydrated();
  const pending = usePending({ intent, id });
  const reply = useActionData() as AdminFormReply | undefined;
  const { t } = useTranslation("admin");
  const accessibleName = fullName ?? (subject === undefined ? undefined : `${label} ${subject}`);
  const form = (submitLabel: string, confirmed: boolean, ariaLabel?: string, onSubmit?: () => void) => (
    <Form method="post" className={admin.inlineForm} preventScrollReset onSubmit={onSubmit}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      {confirmed ? <input type="hidden" name="confirm" value="yes" /> : null}
      {Object.entries(extra ?? {}).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <button
        type="submit"
        className={buttonClass({ tone, size: "small" })}
        aria-label={ariaLabel}
        disabled={disabled || pending}
        aria-busy={pending || undefined}
      >
        {pending ? t("rowAction.pending") : submitLabel}
      </button>
    </Form>
  );
  const failure = <FormAlert errors={errorsOf(reply, formIdOf(intent, id), "")} ns="admin" />;
  if (!confirm || !hydrated)
    return (
      <>
        {form(label, false, accessibleName)}
        {failure}
      </>
    );
  return (
    <>
      <ConfirmDialog
        trigger={label}
        triggerLabel={accessibleName}
        triggerClassName={buttonClass({ tone, size: "small" })}
        title={confirm.question}
        cancelLabel={t("rowAction.cancel")}
        testId={confirm.testId}
        confirm={(close) => form(confirm.yes, true, undefined, close)}
      />
      {failure}
    </>
  );
}

/** The confirmation step without JS: the question, the real form with `confirm=yes`, and a way back. */
export function ConfirmStep({
  intent,
  id,
  confirm,
  tone = "danger",
  cancelTo,
  extra,
}: {
  intent: string;
  id: number;
  confirm: Confirmation;
  tone?: ButtonTone;
  cancelTo: string;
  extra?: Record<string, string>;
}) {
  const { t } = useTranslation("admin");
  const titleId = `confirm-${intent}-${id}`;
  return (
    <div className={`${alert.warning} ${stack}`} role="alertdialog" aria-labelledby={titleId} data-testid={confirm.testId}>
      <p id={titleId} className={admin.confirmQuestion}>
        {confirm.question}
      </p>
      <div className={row}>
        <Form method="post" className={admin.inlineForm}>
          <input type="hidden" name="intent" value={intent} />
          <input type="hidden" name="id" value={id} />
          <input type="hidden" name="confirm" value="yes" />
          {Object.entries(extra ?? {}).map(([k, v]) => (
            <input key={k} type="hidden" name={k} value={v} />
          ))}
          <button type="submit" className={buttonClass({ tone, size: "small" })}>
            {confirm.yes}
          </button>
        </Form>
        <Link to={cancelTo} className={buttonClass({ tone: "secondary", size: "small" })}>
          {t("rowAction.cancel")}
        </Link>
      </div>
    </div>
  );
}
