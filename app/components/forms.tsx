import { Form } from "@remix-run/react";
import { useId, useRef, type ButtonHTMLAttributes, type ReactNode } from "react";
import { buttonClass, type ButtonTone } from "~/styles/recipes";
import { alert, field, fieldError, hint, label as labelClass, row, stack, visuallyHidden } from "~/styles/ui.css";
import { usePending } from "~/utils/use-pending";
import * as styles from "./forms.css";
import { SiteLink } from "./site-link";

/**
 * The parts every form is made of, visitor and admin alike (decision 260). The server decides; these
 * only render: a field wired for assistive technology, its messages, a submit button that knows it
 * is busy, and the confirm-then-post step of every destructive action (`confirm=yes`).
 */

/** Messages arrive as keys; `translate` turns one into the visitor's words (identity by default). */
type Translate = (message: string) => string;
const same: Translate = (message) => message;

/** The ids a field's control points at: its message (`<id>-error`) and its description (`<id>-hint`). */
const errorIdOf = (id: string) => `${id}-error`;
const hintIdOf = (id: string) => `${id}-hint`;

/**
 * The messages of one field or of the whole form, in one paragraph (nothing when there are none).
 * `id` is what the control's `aria-describedby` names.
 */
export function ErrorList({
  id,
  errors,
  translate = same,
  tone = "field",
  testId,
}: {
  id?: string;
  errors?: ReadonlyArray<string | null | undefined> | null;
  translate?: Translate;
  /** "field": the line under a field; "form": the alert above a form. */
  tone?: "field" | "form";
  testId?: string;
}) {
  const messages = [...new Set((errors ?? []).filter((e): e is string => !!e).map(translate))];
  if (messages.length === 0) return null;
  return (
    <p id={id} className={tone === "form" ? alert.error : fieldError} role="alert" data-testid={testId}>
      {messages.join(" ")}
    </p>
  );
}

/** What the control of a <Field> spreads: its id, and the ARIA that ties it to its description and messages. */
export interface FieldControl {
  id: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

/**
 * A label, the control, an optional description and the field's messages. The control is rendered by
 * `children`, which spreads the `FieldControl` it is given (an input, a select, a textarea).
 * `describedBy` adds ids of other regions the control should name (a live list of similar names).
 */
export function Field({
  id,
  label,
  description,
  errors,
  translate,
  describedBy,
  children,
  after,
  hideLabel = false,
  className,
  errorTestId,
}: {
  id: string;
  label: ReactNode;
  /** The label only for assistive technology, where a column header or the row already says it on screen. */
  hideLabel?: boolean;
  description?: ReactNode;
  errors?: readonly string[] | null;
  translate?: Translate;
  describedBy?: string;
  children: (control: FieldControl) => ReactNode;
  /** Rendered under the messages (a region the control describes itself by). */
  after?: ReactNode;
  /** Added to the field's own class (its place in a row of fields). */
  className?: string;
  errorTestId?: string;
}) {
  const invalid = (errors?.length ?? 0) > 0;
  const ids = [invalid && errorIdOf(id), description ? hintIdOf(id) : null, describedBy].filter(Boolean).join(" ");
  return (
    <div className={className ? `${field} ${className}` : field}>
      <label className={hideLabel ? visuallyHidden : labelClass} htmlFor={id}>
        {label}
      </label>
      {children({ id, "aria-invalid": invalid || undefined, "aria-describedby": ids || undefined })}
      {description ? (
        <p className={hint} id={hintIdOf(id)}>
          {description}
        </p>
      ) : null}
      <ErrorList id={errorIdOf(id)} errors={errors} translate={translate} testId={errorTestId} />
      {after}
    </div>
  );
}

/**
 * A checkbox with its label beside it, so that a tap on the words ticks it. `children` renders the
 * input from the props it is given (its id and look), adding its name and state.
 */
export function CheckboxField({
  id,
  label,
  children,
}: {
  id: string;
  label: ReactNode;
  children: (control: { id: string; type: "checkbox"; className: string }) => ReactNode;
}) {
  return (
    <div className={styles.checkboxRow}>
      {children({ id, type: "checkbox", className: styles.checkbox })}
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/**
 * The submit button of a form: busy (and not pressable twice) while this form's `intent` (and row
 * `id`) is being sent. JS only, as `usePending` says; without JS it is a plain button.
 */
export function SubmitButton({
  intent,
  id,
  idField,
  formAction,
  pendingLabel,
  tone,
  size,
  className,
  disabled,
  children,
  ...rest
}: {
  intent?: string;
  id?: number | string | null;
  /** The form field that carries `id` ("id" unless the form names its row otherwise, as the settings' `key`). */
  idField?: string;
  formAction?: string;
  pendingLabel?: ReactNode;
  tone?: ButtonTone;
  size?: "small";
} & Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type" | "id">) {
  const pending = usePending({ intent, id, idField, formAction });
  return (
    <button
      type="submit"
      className={className ?? buttonClass({ tone, size })}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
      {...rest}
    >
      {pending && pendingLabel !== undefined ? pendingLabel : children}
    </button>
  );
}

/** The hidden fields of a form (`intent`, `id`, …). */
export function HiddenFields({ fields }: { fields: Record<string, string | number> }) {
  return (
    <>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

/**
 * A form that is one button: posts `intent` (and `fields`) to this page, busy while it is being sent.
 * For a visitor's single action (keep a code, pause it); an admin row's action is `RowAction`.
 */
export function IntentButton({
  intent,
  fields,
  ...button
}: { intent: string; fields?: Record<string, string | number> } & Omit<Parameters<typeof SubmitButton>[0], "intent">) {
  return (
    <Form method="post">
      <HiddenFields fields={{ intent, ...fields }} />
      <SubmitButton intent={intent} {...button} />
    </Form>
  );
}

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
}: {
  fields: Record<string, string | number>;
  confirm: Confirmation;
  cancelTo: string;
  cancelLabel: string;
  tone?: ButtonTone;
}) {
  const titleId = useId();
  return (
    <div className={`${alert.warning} ${stack}`} role="alertdialog" aria-labelledby={titleId} data-testid={confirm.testId}>
      <p id={titleId} className={styles.confirmQuestion}>
        {confirm.question}
      </p>
      <div className={row}>
        <Form method="post" className={styles.inlineForm}>
          <HiddenFields fields={{ ...fields, [CONFIRM_FIELD]: "yes" }} />
          <button type="submit" className={buttonClass({ tone, size: "small" })}>
            {confirm.yes}
          </button>
        </Form>
        <SiteLink to={cancelTo} className={buttonClass({ tone: "secondary", size: "small" })}>
          {cancelLabel}
        </SiteLink>
      </div>
    </div>
  );
}
