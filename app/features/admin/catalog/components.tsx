import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { alert, button, buttonSmall, fieldError } from "~/styles/ui.css";
import * as admin from "../admin.css";
import type { RowActionData } from "./types";

/** Messages of one field (or the form, `name=""`) from an action's Conform reply. */
export function errorsOf(actionData: RowActionData | undefined, intent: string, id: number | null, name: string): string[] {
  if (!actionData || actionData.intent !== intent || actionData.id !== id) return [];
  return actionData.result.error?.[name] ?? [];
}

export function valueOf(
  actionData: RowActionData | undefined,
  intent: string,
  id: number | null,
  name: string,
): string | undefined {
  if (!actionData || actionData.intent !== intent || actionData.id !== id) return undefined;
  const value = actionData.result.initialValue?.[name];
  return typeof value === "string" ? value : undefined;
}

/** Our messages are keys; a library's own message (never expected) shows as a generic one. */
function useMessages(errors: string[]): string {
  const { t, i18n } = useTranslation("admin-catalog");
  return [...new Set(errors)].map((e) => (i18n.exists(e, { ns: "admin-catalog" }) ? t(e) : t("errors.invalid"))).join(" ");
}

export function FieldErrors({ id, errors }: { id: string; errors: string[] }) {
  const text = useMessages(errors);
  if (errors.length === 0) return null;
  return (
    <p id={id} className={fieldError} role="alert">
      {text}
    </p>
  );
}

export function FormAlert({ errors, testId }: { errors: string[]; testId?: string }) {
  const text = useMessages(errors);
  if (errors.length === 0) return null;
  return (
    <p className={alert.error} role="alert" data-testid={testId ?? "form-error"}>
      {text}
    </p>
  );
}

/** A one-button form posting `intent` + `id`: every row action works without JavaScript. */
export function RowButton({
  intent,
  id,
  label,
  tone = "secondary",
  extra,
  accessibleName,
}: {
  intent: string;
  id: number;
  label: string;
  tone?: "secondary" | "danger" | "primary";
  extra?: Record<string, string>;
  accessibleName?: string;
}) {
  const navigation = useNavigation();
  // With JS: this row's button shows it is working and cannot be pressed twice.
  const pending =
    navigation.state !== "idle" && navigation.formData?.get("intent") === intent && navigation.formData?.get("id") === String(id);
  return (
    <Form method="post" className={admin.inlineForm} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      {Object.entries(extra ?? {}).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <button
        type="submit"
        className={`${button[tone]} ${buttonSmall}`}
        aria-label={accessibleName}
        disabled={pending}
        aria-busy={pending || undefined}
      >
        {label}
      </button>
    </Form>
  );
}
