import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRootData } from "~/utils/root-data";
import * as layout from "~/styles/layout.css";
import { serverOnly$ } from "vite-env-only/macros";
import { ToastBody as ServerToastBody } from "./toast-body";
import { splitPart } from "./split-part";

const HOTKEY = "F8";

/**
 * The toast itself (its timer, its swipe and its markup) is a chunk of its own, loaded where a toast
 * shows (split-part.tsx, decision 265): before hydration when the server's page has one
 * (`preloadToast`, from the root module's `beforeHydration` call), else when the first one arrives.
 */
const ToastBody = splitPart(
  serverOnly$(() => ServerToastBody),
  () => import("./toast-body").then((m) => m.ToastBody),
);

export function preloadToast(): Promise<unknown> | undefined {
  return document.querySelector("[data-testid='toast']") ? ToastBody.preload() : undefined;
}

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
