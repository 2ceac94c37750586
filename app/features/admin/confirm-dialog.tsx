import { useId, useRef, type ReactNode } from "react";
import { row } from "~/styles/ui.css";
import { buttonClass } from "~/styles/recipes";
import * as admin from "./admin.css";

/**
 * With JavaScript, a confirmation as a native modal <dialog> (the browser traps focus, Escape closes,
 * focus goes back to the trigger). `confirm` renders the real form to post, so the dialog only asks;
 * the server decides as always. Native rather than a component library: nothing to load, nothing
 * to import when the server starts.
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
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = () => dialog.current?.close();
  return (
    <>
      <button type="button" className={triggerClassName} aria-label={triggerLabel} onClick={() => dialog.current?.showModal()}>
        {trigger}
      </button>
      {/* A click on the backdrop (the dialog element itself, outside its body) dismisses it, as Escape does. */}
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions */}
      <dialog
        ref={dialog}
        role="alertdialog"
        aria-labelledby={titleId}
        className={admin.dialogModal}
        data-testid={testId}
        onClick={(event) => {
          if (event.target === event.currentTarget) close();
        }}
      >
        <div className={admin.dialogBody}>
          <h2 id={titleId} className={admin.dialogTitle}>
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
