import type { ReactNode } from "react";
import { Button, Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from "react-aria-components";
import { row } from "~/styles/ui.css";
import * as admin from "./admin.css";
import { buttonClass } from "~/styles/recipes";

/**
 * With JavaScript, a confirmation as an accessible alert dialog (focus trapped, Escape closes).
 * `confirm` renders the real form to post, so the dialog only asks; the server decides as always.
 */
export function ConfirmDialog({
  trigger,
  triggerLabel,
  triggerClassName = buttonClass({ tone: "secondary", size: "small" }),
  title,
  cancelLabel,
  confirm,
  testId,
}: {
  trigger: ReactNode;
  triggerLabel?: string;
  triggerClassName?: string;
  title: string;
  cancelLabel: string;
  confirm: (close: () => void) => ReactNode;
  testId?: string;
}) {
  return (
    <DialogTrigger>
      <Button className={triggerClassName} aria-label={triggerLabel}>
        {trigger}
      </Button>
      <ModalOverlay className={admin.dialogOverlay} isDismissable>
        <Modal className={admin.dialogModal}>
          <Dialog role="alertdialog" className={admin.dialogBody} data-testid={testId}>
            {({ close }) => (
              <>
                <Heading slot="title" className={admin.dialogTitle}>
                  {title}
                </Heading>
                <div className={row}>
                  {confirm(close)}
                  <Button className={buttonClass({ tone: "secondary", size: "small" })} onPress={close}>
                    {cancelLabel}
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
