import { Form } from "@remix-run/react";
import { Button, Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from "react-aria-components";
import { useTranslation } from "react-i18next";
import * as admin from "~/features/admin/admin.css";
import { button, buttonSmall, row, stack } from "~/styles/ui.css";
import { useHydrated } from "~/utils/use-hydrated";
import { usePendingIntent } from "./form-bits";
import * as site from "./site.css";

/**
 * A row's delete form. Without JS it is the plain form (one click deletes). With JS the button
 * opens a react-aria dialog that asks first; its confirm button submits the very same form.
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
    <DialogTrigger>
      <Button className={`${button.danger} ${buttonSmall}`} aria-label={label}>
        {t("confirm.delete")}
      </Button>
      <ModalOverlay className={site.modalOverlay} isDismissable>
        <Modal className={site.modal}>
          <Dialog role="alertdialog" className={stack} style={{ outline: "none" }}>
            {({ close }) => (
              <>
                <Heading slot="title" style={{ margin: 0, fontSize: "1.2rem" }}>
                  {question}
                </Heading>
                <div className={row}>
                  <Button className={`${button.secondary} ${buttonSmall}`} onPress={close}>
                    {t("confirm.cancel")}
                  </Button>
                  {form(t("confirm.confirmDelete"))}
                </div>
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
