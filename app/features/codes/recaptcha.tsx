import { useEffect, useRef } from "react";
import { useNonce } from "~/utils/nonce";

const SCRIPT = "https://www.google.com/recaptcha/api.js";

declare global {
  interface Window {
    grecaptcha?: { render: (el: HTMLElement, options: { sitekey: string }) => number; ready?: (cb: () => void) => void };
  }
}

/**
 * reCAPTCHA v2 checkbox. The server HTML carries the script (with the CSP nonce) and the widget
 * container, which Google's script renders on load and which adds `g-recaptcha-response` to the form.
 * After a client-side navigation the script is injected (its host is allowed by the CSP) or reused.
 */
export function Recaptcha({ siteKey, label }: { siteKey: string; label: string }) {
  const nonce = useNonce();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || el.childElementCount > 0) return;
    const render = () => {
      if (el.childElementCount === 0) window.grecaptcha?.render(el, { sitekey: siteKey });
    };
    if (window.grecaptcha?.render) {
      if (window.grecaptcha.ready) window.grecaptcha.ready(render);
      else render();
      return;
    }
    if (!document.querySelector(`script[src^="${SCRIPT}"]`)) {
      const script = document.createElement("script");
      script.src = SCRIPT;
      script.async = true;
      document.head.appendChild(script);
    }
  }, [siteKey]);
  return (
    <div role="group" aria-label={label}>
      <div ref={ref} className="g-recaptcha" data-sitekey={siteKey} suppressHydrationWarning />
      <script src={SCRIPT} async defer nonce={nonce} suppressHydrationWarning />
    </div>
  );
}
