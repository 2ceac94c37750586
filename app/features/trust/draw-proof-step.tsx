import { Form, useSubmit } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Recaptcha } from "~/features/codes/recaptcha";
import { alert, button, hint, row, stack } from "~/styles/ui.css";
import { DRAW_PROOF_FIELD, DRAW_PROOF_NONCE_FIELD, hasLeadingZeroBits, type DrawProofView } from "./draw-proof";

/** The nonce whose SHA-256 with the challenge starts with `bits` zero bits; null without Web Crypto. */
async function solve(challenge: string, bits: number): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const encoder = new TextEncoder();
  for (let nonce = 0; nonce < 2 ** (bits + 8); nonce++) {
    const digest = new Uint8Array(await subtle.digest("SHA-256", encoder.encode(`${challenge}:${nonce}`)));
    if (hasLeadingZeroBits(digest, bits)) return String(nonce);
  }
  return null;
}

/**
 * The draw page's "one moment" step (decision 350), shown instead of the draw form past the soft
 * bound. A plain form that posts the challenge back to the draw page: with JavaScript the page
 * computes the proof of work and sends it at once; without, the visitor presses Continue after a
 * few seconds; with the captcha, the visitor ticks it first.
 */
export function DrawProofStep({ view, action }: { view: DrawProofView; action: string }) {
  const { t } = useTranslation("trust");
  const form = useRef<HTMLFormElement>(null);
  const submit = useSubmit();
  useEffect(() => {
    if (view.siteKey) return;
    let left = false;
    void solve(view.challenge, view.bits).then((nonce) => {
      const el = form.current;
      if (left || nonce === null || !el) return;
      const input = el.elements.namedItem(DRAW_PROOF_NONCE_FIELD);
      if (input instanceof HTMLInputElement) input.value = nonce;
      submit(el, { method: "post", action });
    });
    return () => {
      left = true;
    };
  }, [view, action, submit]);
  return (
    <section className={stack} data-testid="draw-proof" data-reason={view.reason} aria-labelledby="draw-proof-heading">
      <h2 id="draw-proof-heading">{t("drawProof.heading")}</h2>
      <p className={view.reason === "needed" ? alert.info : alert.warning} role="status">
        {t(`drawProof.reason.${view.reason}`, { seconds: view.waitSeconds })}
      </p>
      <Form method="post" action={action} ref={form} className={stack}>
        <input type="hidden" name="intent" value="draw" />
        <input type="hidden" name={DRAW_PROOF_FIELD} value={view.challenge} />
        <input type="hidden" name={DRAW_PROOF_NONCE_FIELD} defaultValue="" />
        {view.siteKey ? (
          <Recaptcha siteKey={view.siteKey} label={t("drawProof.captchaLabel")} />
        ) : (
          <p className={hint}>{t("drawProof.hint", { seconds: view.waitSeconds })}</p>
        )}
        <p className={row}>
          <button type="submit" className={button.gradient} data-testid="draw-proof-continue">
            {t("drawProof.continue")}
          </button>
        </p>
      </Form>
    </section>
  );
}
