import { getInputProps, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import type { InputHTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import { ErrorList, Field } from "~/components/forms";
import { input } from "~/styles/ui.css";

/**
 * What a rejected admin form answers (forms.server.ts `rejectForm`): the id of the form it was
 * (`formIdOf(intent, rowId)`) and Conform's reply, whose messages are translation keys. The page
 * hands `lastResultFor(reply, formId)` to that form's `useForm`, so the message and the kept input
 * appear next to the right row and nowhere else.
 */
export type AdminFormReply = { formId: string; result: SubmissionResult<string[]> };

export function formIdOf(intent: string, id: number | string | null): string {
  return id === null ? intent : `${intent}-${id}`;
}

export function lastResultFor(reply: AdminFormReply | undefined, formId: string): SubmissionResult<string[]> | undefined {
  return reply?.formId === formId ? reply.result : undefined;
}

/** A message key, translated in the admin namespace that holds it; an unknown one reads "invalid". */
export function useAdminMessage(ns: string) {
  const { t, i18n } = useTranslation([ns, "admin"]);
  return (key: string, values?: Record<string, unknown>) =>
    i18n.exists(key, { ns }) ? (t(key, { ns, ...values }) as string) : (t("admin:form.invalid") as string);
}

/** A form-level message (Conform's `form.errors`), or a row's refusal. */
export function FormAlert({ errors, ns, testId }: { errors?: string[]; ns: string; testId?: string }) {
  const message = useAdminMessage(ns);
  return <ErrorList tone="form" errors={errors} translate={(key) => message(key)} testId={testId ?? "form-error"} />;
}

/** The messages of one field ("" = the form) in a reply to form `formId`, for forms without useForm. */
export function errorsOf(reply: AdminFormReply | undefined, formId: string, name: string): string[] {
  return lastResultFor(reply, formId)?.error?.[name] ?? [];
}

/** The value a rejected form `formId` sent for `name`, to render it again. */
export function valueOf(reply: AdminFormReply | undefined, formId: string, name: string): string | undefined {
  const value = lastResultFor(reply, formId)?.initialValue?.[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * A Conform field of an admin form as a one-line input (text, url, email, date…) in a <Field>:
 * Conform's props (name, kept value, constraints), the label, and its messages in namespace `ns`.
 */
export function InputField<Schema>({
  meta,
  type,
  label,
  ns,
  ...rest
}: {
  meta: FieldMetadata<Schema>;
  type: "text" | "url" | "email" | "date" | "number" | "search";
  label: string;
  ns: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "id" | "name">) {
  const message = useAdminMessage(ns);
  return (
    <Field id={meta.id} label={label} errors={meta.errors} translate={message}>
      {(control) => <input {...getInputProps(meta, { type })} {...control} className={input} {...rest} />}
    </Field>
  );
}
