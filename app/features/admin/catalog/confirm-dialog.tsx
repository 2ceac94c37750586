import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { Button, Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { button, buttonSmall, row } from "~/styles/ui.css";
import * as css from "./catalog.css";

/**
 * With JavaScript, a confirmation step as an accessible alert dialog (focus trapped, Escape
 * closes) whose confirm button posts the same form as the no-JS confirmation page.
 */
export function ConfirmDialog({
  trigger,
  triggerLabel,
  title,
  confirmLabel,
  fields,
}: {
  trigger: ReactNode;
  triggerLabel?: string;
  title: string;
  confirmLabel: string;
  fields: Record<string, string>;
}) {
  const { t } = useTranslation("admin-catalog");
  return (
    <DialogTrigger>
      <Button className={`${button.secondary} ${buttonSmall}`} aria-label={triggerLabel}>
        {trigger}
      </Button>
      <ModalOverlay className={css.overlay} isDismissable>
        <Modal className={css.modal}>
          <Dialog role="alertdialog" className={css.dialog} data-testid="reject-confirm">
            {({ close }) => (
              <>
                <Heading slot="title" style={{ margin: 0, fontSize: "1.1rem" }}>
                  {title}
                </Heading>
                <div className={row}>
                  <Form method="post" onSubmit={() => close()}>
                    {Object.entries(fields).map(([k, v]) => (
                      <input key={k} type="hidden" name={k} value={v} />
                    ))}
                    <button type="submit" className={`${button.danger} ${buttonSmall}`}>
                      {confirmLabel}
                    </button>
                  </Form>
                  <Button className={`${button.secondary} ${buttonSmall}`} onPress={close}>
                    {t("common.cancel")}
                  </Button>
                </div>
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
