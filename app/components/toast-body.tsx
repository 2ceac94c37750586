import { useEffect, useRef, useState, type PointerEvent } from "react";
import { useTranslation } from "react-i18next";
import type { RootData } from "~/utils/root-data";
import * as layout from "~/styles/layout.css";
import { flush } from "~/styles/ui.css";

const TOAST_MS = 5000;
/** A swipe to the right of at least this many pixels dismisses the toast. */
const SWIPE_DISMISS_PX = 50;

type Toast = NonNullable<RootData["toast"]>;

/** The toast shown in the region (toast.tsx): gone after 5 s, by its close box, or swiped right. */
export function ToastBody({ toast, onDismiss }: { toast: Toast; onDismiss: (id: string) => void }) {
  const { t } = useTranslation();

  useEffect(() => {
    const timer = setTimeout(() => onDismiss(toast.id), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast, onDismiss]);

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
    if (distance >= SWIPE_DISMISS_PX) onDismiss(toast.id);
  };

  const tone = toast.type === "success" ? layout.toastSuccess : toast.type === "error" ? layout.toastError : layout.toastInfo;
  return (
    <>
      <input
        type="checkbox"
        id={`toast-${toast.id}`}
        className={layout.toastDismiss}
        aria-label={t("toast.dismiss")}
        onChange={() => onDismiss(toast.id)}
      />
      <div
        className={`${layout.toast} ${tone}`}
        data-testid="toast"
        data-type={toast.type}
        style={offset ? { transform: `translateX(${offset}px)`, opacity: Math.max(0.2, 1 - offset / 150) } : undefined}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
      >
        <p className={flush}>{t(toast.key, toast.values)}</p>
        <label htmlFor={`toast-${toast.id}`} className={layout.toastClose} title={t("toast.dismiss")}>
          <span aria-hidden="true">×</span>
        </label>
      </div>
    </>
  );
}
