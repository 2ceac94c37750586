import { useEffect, useRef, useState, type PointerEvent } from "react";
import { useTranslation } from "react-i18next";
import { useRootData } from "~/utils/root-data";
import * as layout from "~/styles/layout.css";
import { flush } from "~/styles/ui.css";

const TOAST_MS = 5000;
/** A swipe to the right of at least this many pixels dismisses the toast. */
const SWIPE_DISMISS_PX = 50;
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

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setDismissed(toast.id), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast]);

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

  // Swipe right to dismiss: the toast follows the finger, and goes past 50 px.
  const swipe = useRef<{ id: number; x: number } | null>(null);
  const [offset, setOffset] = useState(0);
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    swipe.current = { id: event.pointerId, x: event.clientX };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (swipe.current?.id === event.pointerId) setOffset(Math.max(0, event.clientX - swipe.current.x));
  };
  const onPointerEnd = (event: PointerEvent<HTMLDivElement>) => {
    if (swipe.current?.id !== event.pointerId) return;
    const distance = event.clientX - swipe.current.x;
    swipe.current = null;
    setOffset(0);
    if (distance >= SWIPE_DISMISS_PX && toast) setDismissed(toast.id);
  };

  const visible = toast && dismissed !== toast.id ? toast : null;
  const tone =
    visible?.type === "success" ? layout.toastSuccess : visible?.type === "error" ? layout.toastError : layout.toastInfo;

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
      {visible ? (
        <>
          <input
            type="checkbox"
            id={`toast-${visible.id}`}
            className={layout.toastDismiss}
            aria-label={t("toast.dismiss")}
            onChange={() => setDismissed(visible.id)}
          />
          <div
            className={`${layout.toast} ${tone}`}
            data-testid="toast"
            data-type={visible.type}
            style={offset ? { transform: `translateX(${offset}px)`, opacity: Math.max(0.2, 1 - offset / 150) } : undefined}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerEnd}
            onPointerCancel={onPointerEnd}
          >
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
