import { Form } from "@remix-run/react";
import type { ButtonHTMLAttributes, ReactNode } from "react";
import { buttonClass, type ButtonTone } from "~/styles/recipes";
import { usePending } from "~/utils/use-pending";

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
