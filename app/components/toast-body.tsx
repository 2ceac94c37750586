import { useEffect, useRef, useState, type PointerEvent } from "react";
import { useTranslation } from "react-i18next";
import type { RootData } from "~/utils/root-data";
import * as layout from "~/styles/layout.css";
import { flush } from "~/styles/ui.css";

/** Where the browser runs no animation at all: the toast's life without the CSS (layout.css.ts). */
const TOAST_MS = 5000;
/** A swipe to the right of at least this many pixels dismisses the toast. */
const SWIPE_DISMISS_PX = 50;

type Toast = NonNullable<RootData["toast"]>;

/** The toast shown in the region (toast.tsx): gone after 5 s, by its close box, or swiped right. */
export function ToastBody({ toast, onDismiss }: { toast: Toast; onDismiss: (id: string) => void }) {
  const { t } = useTranslation();

  // The toast goes when its CSS life ends (the `toastGone` animation, 5 s), as without JavaScript:
  // a pointer over it or the focus in it pauses that life (animation-play-state), a script timer
  // did not, and took the toast away from under a reader who had asked it to stay (WCAG 2.2.1).
  // Only where the browser runs no animation does a timer stand in.
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (element.current?.getAnimations?.().length) return;
    const timer = setTimeout(() => onDismiss(toast.id), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast, onDismiss]);

  // Swipe right to dismiss: the toast follows the finger, and goes past 50 px.
  const swipe = useRef<{ id: number; x: number } | null>(null);
  const [offset, setOffset] = useState(0);
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    // A mouse's press would also start a text selection, and a second swipe over the text the first
    // one selected would drag that text instead (the browser cancels the pointer): no selection.
    if (event.pointerType === "mouse") event.preventDefault();
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
        ref={element}
        className={`${layout.toast} ${tone}`}
        data-testid="toast"
        onAnimationEnd={(event) => {
          if (event.animationName === layout.toastGone) onDismiss(toast.id);
        }}
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
