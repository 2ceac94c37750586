import type { ReactNode } from "react";
import { alert, field, fieldError, hint, label as labelClass, visuallyHidden } from "~/styles/ui.css";
import * as styles from "./forms.css";

/**
 * The parts every form is made of, visitor and admin alike (decision 260). The server decides; these
 * only render: a field wired for assistive technology, its messages, a submit button that knows it
 * is busy, and the confirm-then-post step of every destructive action (`confirm=yes`).
 *
 * Each part lives in the smallest module that holds it (fields here, buttons in submit-button.tsx,
 * confirmations in confirm.tsx): a browser chunk holds whole modules, so a page that only posts a
 * button loads no field code, and no visitor form but one loads the confirm dialog (decision 263).
 * This module also re-exports the others for the admin's pages.
 */
export { HiddenFields, SubmitButton } from "./submit-button";
export { CONFIRM_FIELD, ConfirmDialog, ConfirmStep, type Confirmation } from "./confirm";

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
