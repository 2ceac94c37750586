import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as admin from "~/features/admin/admin.css";
import { ConfirmDialog } from "~/features/admin/confirm-dialog";
import { button, buttonSmall } from "~/styles/ui.css";
import { useHydrated } from "~/utils/use-hydrated";
import { usePendingIntent } from "./form-bits";

/**
 * A row's delete form. Without JS it is the plain form (one click deletes). With JS the button
 * opens a dialog that asks first; its confirm button submits the very same form.
 */
export function ConfirmDeleteForm({ id, label, question }: { id: number; label: string; question: string }) {
  const { t } = useTranslation("admin-site");
  const hydrated = useHydrated();
  const deleting = usePendingIntent("delete", id);
  const form = (submitLabel: string, aria?: string) => (
    <Form method="post" className={admin.inlineForm}>
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="id" value={id} />
      <button type="submit" className={`${button.danger} ${buttonSmall}`} aria-label={aria} disabled={deleting}>
        {deleting ? t("common.pending") : submitLabel}
      </button>
    </Form>
  );
  if (!hydrated) return form(t("confirm.delete"), label);
  return (
    <ConfirmDialog
      trigger={t("confirm.delete")}
      triggerLabel={label}
      triggerClassName={`${button.danger} ${buttonSmall}`}
      title={question}
      cancelLabel={t("confirm.cancel")}
      confirm={() => form(t("confirm.confirmDelete"))}
    />
  );
}
