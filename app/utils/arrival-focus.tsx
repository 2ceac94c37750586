import { useEffect, useRef } from "react";
import { visuallyHidden } from "~/styles/ui.css";
import { useHydrationRender } from "./use-hydrated";

const ANNOUNCER_ID = "live-announcer";

/**
 * The page's one polite live region for what a script changed in place (a drawn code, a counted
 * vote): it stays in the page, so each new text in it is read out. Rendered once, by the root layout.
 */
export function LiveAnnouncer() {
  return <p id={ANNOUNCER_ID} className={visuallyHidden} role="status" aria-live="polite" aria-atomic="true" />;
}

function announce(text: string) {
  const region = document.getElementById(ANNOUNCER_ID);
  if (!region) return;
  // Emptied first, so the same words said twice are read twice.
  region.textContent = "";
  setTimeout(() => (region.textContent = text), 100);
}

/**
 * After a form sent with JavaScript, the answer replaces what had focus (a disabled button, a form):
 * the focus would fall to <body> and nothing would be read. Each time `key` changes to something
 * (a new result, new errors) while the page is already running, the element gets the focus (a form:
 * its first invalid field) and `announcement` is said. What came in the server's HTML is left alone:
 * a page load starts at the top, as without JS.
 */
export function useArrivalFocus<T extends HTMLElement>(key: unknown, announcement?: string | null) {
  const ref = useRef<T>(null);
  const fromServer = useRef(useHydrationRender());
  useEffect(() => {
    const first = fromServer.current;
    fromServer.current = false;
    if (first || key === null || key === undefined || !ref.current) return;
    const target = ref.current;
    (target instanceof HTMLFormElement ? firstProblem(target) : target)?.focus();
    if (announcement) announce(announcement);
    // Only a new key moves the focus; the announcement's words follow it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return ref;
}

/** A rejected form's first invalid field, or else its first message (made focusable). */
function firstProblem(form: HTMLFormElement): HTMLElement | null {
  const field = form.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (field) return field;
  const message = form.querySelector<HTMLElement>('[role="alert"]');
  if (message && !message.hasAttribute("tabindex")) message.tabIndex = -1;
  return message;
}
