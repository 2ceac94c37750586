import { Form, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CONFIRM_FIELD, ConfirmDialog, ConfirmStep, HiddenFields, SubmitButton, type Confirmation } from "~/components/forms";
import { buttonClass, type ButtonTone } from "~/styles/recipes";
import { useHydrated } from "remix-utils/use-hydrated";
import * as admin from "./admin.css";
import { errorsOf, FormAlert, formIdOf, type AdminFormReply } from "./forms";

export type { Confirmation };

/**
 * One row action: a one-button form posting `intent` + `id` (plus `extra` hidden fields). Works
 * without JavaScript; with it, the button shows it is busy and cannot be pressed twice.
 * With `confirm`, the action asks first: with JS an alert dialog whose button posts `confirm=yes`,
 * without JS the server's confirmation step (confirmation.server.ts, then <RowConfirmStep>).
 * A write the database refused (runWrite with refusedForm) shows its message under the button.
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
  const reply = useActionData() as AdminFormReply | undefined;
  const { t } = useTranslation("admin");
  const accessibleName = fullName ?? (subject === undefined ? undefined : `${label} ${subject}`);
  const form = (submitLabel: string, confirmed: boolean, ariaLabel?: string, onSubmit?: () => void) => (
    <Form method="post" className={admin.inlineForm} preventScrollReset onSubmit={onSubmit}>
      <HiddenFields fields={{ intent, id, ...(confirmed ? { [CONFIRM_FIELD]: "yes" } : {}), ...extra }} />
      <SubmitButton
        intent={intent}
        id={id}
        tone={tone}
        size="small"
        aria-label={ariaLabel}
        disabled={disabled}
        pendingLabel={t("rowAction.pending")}
      >
        {submitLabel}
      </SubmitButton>
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

/** A row action's confirmation step without JS: <ConfirmStep> posting `intent` + `id` (+ `extra`). */
export function RowConfirmStep({
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
  return (
    <ConfirmStep
      fields={{ intent, id, ...extra }}
      confirm={confirm}
      tone={tone}
      cancelTo={cancelTo}
      cancelLabel={t("rowAction.cancel")}
    />
  );
}
