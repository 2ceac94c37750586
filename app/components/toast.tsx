import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRootData } from "~/root";
import * as layout from "~/styles/layout.css";
import { flush } from "~/styles/ui.css";

const TOAST_MS = 5000;

/**
 * One toast at a time, from the server's flash (so it shows after a no-JS redirect).
 * Without JS: a CSS timer hides it after 5 s and a checkbox dismisses it.
 * The region stays in the page so screen readers announce each new message.
 */
export function ToastRegion() {
  const { t } = useTranslation();
  const root = useRootData();
  const toast = root?.toast ?? null;
  const [dismissed, setDismissed] = useState<string | null>(null);

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setDismissed(toast.id), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast]);

  const visible = toast && dismissed !== toast.id ? toast : null;
  const tone =
    visible?.type === "success" ? layout.toastSuccess : visible?.type === "error" ? layout.toastError : layout.toastInfo;

  return (
    <div className={layout.toastRegion} role="status" aria-live="polite" aria-atomic="true">
      {visible ? (
        <>
          <input
            type="checkbox"
            id={`toast-${visible.id}`}
            className={layout.toastDismiss}
            aria-label={t("toast.dismiss")}
            onChange={() => setDismissed(visible.id)}
          />
          <div className={`${layout.toast} ${tone}`} data-testid="toast" data-type={visible.type}>
            <p className={flush}>{t(visible.key, visible.values)}</p>
            <label htmlFor={`toast-${visible.id}`} className={layout.toastClose} title={t("toast.dismiss")}>
              <span aria-hidden="true">×</span>
            </label>
          </div>
        </>
      ) : null}
    </div>
  );
}
