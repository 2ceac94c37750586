import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRootData } from "~/utils/root-data";
import * as layout from "~/styles/layout.css";
import { ToastBody } from "./toast-body";

const HOTKEY = "F8";

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

  // F8 brings keyboard focus to the notifications, wherever it was.
  const regionRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== HOTKEY || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      regionRef.current?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const visible = toast && dismissed !== toast.id ? toast : null;
  return (
    <div
      ref={regionRef}
      className={layout.toastRegion}
      role="status"
      aria-live="polite"
      aria-atomic="true"
      aria-label={t("toast.region")}
      tabIndex={-1}
      data-testid="toast-region"
    >
      {/* Keyed: a new toast is a new element, whose CSS life starts again (an element kept would go on with the last one's). */}
      {visible ? <ToastBody key={visible.id} toast={visible} onDismiss={setDismissed} /> : null}
    </div>
  );
}
