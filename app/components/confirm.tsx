import { Form, Link } from "@remix-run/react";
import { useId, useRef, type ReactNode } from "react";
import { buttonClass, type ButtonTone } from "~/styles/recipes";
import { alert, row, stack } from "~/styles/ui.css";
import * as styles from "./confirm.css";
import { HiddenFields } from "./submit-button";

/** The one field name that says "yes, carry out this destructive action". */
export const CONFIRM_FIELD = "confirm";

export interface Confirmation {
  /** The question, naming what goes ("Delete the score of Ana?"). */
  question: string;
  /** The confirm button's label ("Yes, delete"). */
  yes: string;
  testId?: string;
}

/**
 * With JavaScript, a confirmation as a native modal <dialog> (the browser traps focus, Escape closes,
 * focus goes back to the trigger). `confirm` renders the real form to post, so the dialog only asks;
 * the server decides as always. Native rather than a component library: nothing to load.
 */
export function ConfirmDialog({
  trigger,
  triggerLabel,
  triggerClassName = buttonClass({ tone: "secondary", size: "small" }),
  triggerTestId,
  title,
  cancelLabel,
  confirm,
  testId,
}: {
  trigger: ReactNode;
  triggerLabel?: string;
  triggerClassName?: string;
  triggerTestId?: string;
  title: string;
  cancelLabel: string;
  confirm: (close: () => void) => ReactNode;
  testId?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = () => dialog.current?.close();
  return (
    <>
      <button
        type="button"
        className={triggerClassName}
        aria-label={triggerLabel}
        data-testid={triggerTestId}
        onClick={() => dialog.current?.showModal()}
      >
        {trigger}
      </button>
      {/* A click on the backdrop (the dialog element itself, outside its body) dismisses it, as Escape does. */}
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions */}
      <dialog
        ref={dialog}
        role="alertdialog"
        aria-labelledby={titleId}
        className={styles.dialogModal}
        data-testid={testId}
        onClick={(event) => {
          if (event.target === event.currentTarget) close();
        }}
      >
        <div className={styles.dialogBody}>
          <h2 id={titleId} className={styles.dialogTitle}>
            {title}
          </h2>
          <div className={row}>
            {confirm(close)}
            <button type="button" className={buttonClass({ tone: "secondary", size: "small" })} onClick={close}>
              {cancelLabel}
            </button>
          </div>
        </div>
      </dialog>
    </>
  );
}

/**
 * The confirmation step without JS (the action answered `askToConfirm`, the page shows this): the
 * question, the real form with `confirm=yes` and the same hidden fields, and a way back.
 */
export function ConfirmStep({
  fields,
  confirm,
  cancelTo,
  cancelLabel,
  tone = "danger",
  action,
}: {
  fields: Record<string, string | number>;
  confirm: Confirmation;
  cancelTo: string;
  cancelLabel: string;
  tone?: ButtonTone;
  /** Where the form posts, when not to the page itself (the assistant's card posts to the tab). */
  action?: string;
}) {
  const titleId = useId();
  return (
    <div className={`${alert.warning} ${stack}`} role="alertdialog" aria-labelledby={titleId} data-testid={confirm.testId}>
      <p id={titleId} className={styles.confirmQuestion}>
        {confirm.question}
      </p>
      <div className={row}>
        <Form method="post" action={action} reloadDocument={action !== undefined} className={styles.inlineForm}>
          <HiddenFields fields={{ ...fields, [CONFIRM_FIELD]: "yes" }} />
          <button type="submit" className={buttonClass({ tone, size: "small" })}>
            {confirm.yes}
          </button>
        </Form>
        <Link to={cancelTo} className={buttonClass({ tone: "secondary", size: "small" })}>
          {cancelLabel}
        </Link>
      </div>
    </div>
  );
}
