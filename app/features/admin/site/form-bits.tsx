import { useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { fieldError } from "~/styles/ui.css";

/** The message next to a field; `errors` hold translation keys of admin-site. */
export function FieldError({ id, errors, values }: { id: string; errors?: string[]; values?: Record<string, unknown> }) {
  const { t } = useTranslation("admin-site");
  if (!errors?.length) return null;
  return (
    <p id={id} className={fieldError}>
      {t(errors[0]!, values)}
    </p>
  );
}

/** True while this very form (same intent and row id) is being submitted (JS only). */
export function usePendingIntent(intent: string, id?: number | string, idField = "id"): boolean {
  const navigation = useNavigation();
  if (navigation.state !== "submitting" || !navigation.formData) return false;
  const sentId = navigation.formData.get(idField);
  return navigation.formData.get("intent") === intent && (id === undefined ? sentId === null : sentId === String(id));
}
