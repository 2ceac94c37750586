import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { safeHref } from "~db/platform-links";
import { button, card, contents, input, muted, noScriptOnly, scriptOnly, stack, visuallyHidden } from "~/styles/ui.css";
import { useArrivalFocus } from "~/utils/arrival-focus";
import * as styles from "./codes.css";
import { CopyButton } from "./copy-button";
import { drawAnimation } from "./draw-animation";
import { lead } from "~/features/offer/offer.css";

/** The slot machine: 5 candidates, every 50 ms for 2 s, then every 100 ms for 1.5 s, result 500 ms after settling. */
const SLOT = { candidates: 5, fastMs: 50, fastForMs: 2000, slowMs: 100, slowForMs: 1500, revealAfterMs: 500 } as const;

// Set when this tab submits a draw; the result page plays the animation once, then clears it.
// A reload or a shared result address shows the code at once.
export interface DrawResultData {
  code: string;
  referralUrl: string | null;
  platformName: string;
  platformSlug: string;
}

function prefersReducedMotion(): boolean {
  return typeof window !== "undefined" && window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
}

function decoys(code: string, n: number): string[] {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const length = Math.min(Math.max(code.length, 6), 16);
  return Array.from({ length: n - 1 }, () =>
    Array.from({ length }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join(""),
  ).concat(code);
}

/**
 * Decorates the server's answer; it never chooses. Resolves to the result after the sequence, or at
 * once when the visitor skips it (`skip`: a tap on the spinning code, or any key).
 */
function useSlotMachine(code: string): { spinning: boolean; shown: string; skip: () => void } {
  // Decided once at mount (a client navigation right after this tab's draw), not on the server.
  const [animate] = useState(() => drawAnimation.next && !prefersReducedMotion());
  const [state, setState] = useState<{ spinning: boolean; shown: string }>({ spinning: animate, shown: animate ? "" : code });
  // Skipped: the result at once; the sequence's last timers change nothing anyone sees.
  const [skipped, setSkipped] = useState(false);
  const [skip] = useState(() => () => setSkipped(true));
  const spinning = state.spinning && !skipped;
  useEffect(() => {
    drawAnimation.next = false;
    if (!animate) return;
    const candidates = decoys(code, SLOT.candidates);
    const timers: ReturnType<typeof setTimeout>[] = [];
    let elapsed = 0;
    let i = 0;
    setState({ spinning: true, shown: candidates[0]! });
    const schedule = (step: number, until: number) => {
      while (elapsed + step <= until) {
        elapsed += step;
        const shown = candidates[++i % candidates.length]!;
        timers.push(setTimeout(() => setState({ spinning: true, shown }), elapsed));
      }
    };
    schedule(SLOT.fastMs, SLOT.fastForMs);
    schedule(SLOT.slowMs, SLOT.fastForMs + SLOT.slowForMs);
    timers.push(setTimeout(() => setState({ spinning: true, shown: code }), elapsed));
    timers.push(setTimeout(() => setState({ spinning: false, shown: code }), elapsed + SLOT.revealAfterMs));
    return () => timers.forEach(clearTimeout);
  }, [animate, code]);
  // Any key skips, as a tap on the spinning code does.
  useEffect(() => {
    if (!spinning) return;
    window.addEventListener("keydown", skip);
    return () => window.removeEventListener("keydown", skip);
  }, [spinning, skip]);
  return { spinning, shown: state.shown, skip };
}

export function DrawResultView({
  result,
  anotherHref,
  showPlatform,
  bonus = null,
  children,
}: {
  result: DrawResultData;
  anotherHref: string;
  showPlatform?: boolean;
  /** What the offer gives the new customer, said beside the code. */
  bonus?: string | null;
  /** Shown under the result once it is revealed (the "did it work?" question). */
  children?: React.ReactNode;
}) {
  const { t } = useTranslation("platform");
  const { spinning, shown, skip } = useSlotMachine(result.code);
  const href = safeHref(result.referralUrl);
  const shareText = t("draw.shareText", { name: result.platformName, code: result.code });
  // Reached by a script (the draw button, then the slot machine): the focus goes to the result's
  // heading once it shows, and the code is said.
  const heading = useArrivalFocus<HTMLHeadingElement>(
    spinning ? null : result.code,
    t("common:announce.drawn", { code: result.code }),
  );
  // While the slot machine spins, the result is laid out already, hidden (visibility keeps its
  // room): when it ends, the code takes the spinning box's place and nothing on the page moves.
  const hidden = (className: string) => (spinning ? `${className} ${styles.reserved}` : className);

  return (
    <>
      <section className={`${card} ${stack}`} aria-labelledby="your-code-heading" data-testid="draw-result">
        <h2 id="your-code-heading" tabIndex={-1} ref={heading}>
          {t(spinning ? "draw.drawing" : "draw.yourCode")}
        </h2>
        {showPlatform ? <p data-testid="drawn-platform">{t("draw.platform", { name: result.platformName })}</p> : null}
        <div className={styles.swap}>
          <p className={hidden(styles.codeBox)} data-testid="drawn-code">
            {result.code}
          </p>
          {spinning ? (
            // The spinning code is the skip control, over the code's own box: one tap (or any key)
            // shows the result at once.
            <button
              type="button"
              className={styles.skip}
              onClick={skip}
              aria-label={t("draw.skip")}
              data-hint={t("draw.skipHint")}
              data-testid="draw-skip"
            >
              <span className={styles.slot}>{shown}</span>
            </button>
          ) : null}
        </div>
        <div className={hidden(stack)}>
          {bonus ? (
            <p className={lead} data-testid="offer-lead">
              <span className={visuallyHidden}>{t("common:offerLead")} </span>
              {bonus}
            </p>
          ) : null}
          {/* Without JS, a field to copy from; where scripts run, the copy button instead (same place before and after
            hydration). Hidden there by a media query, not removed after hydration: no second render (decision 275). */}
          <label className={`${stack} ${noScriptOnly}`}>
            <span className={muted}>{t("draw.codeField")}</span>
            <input type="text" className={`${input} ${styles.linkText}`} readOnly value={result.code} />
          </label>
          {href ? (
            <p className={styles.linkText}>
              <span className={muted}>{t("draw.link")} </span>
              {href}
            </p>
          ) : null}
          <div className={styles.resultActions}>
            <CopyButton value={result.code} label={t("draw.copy")} testId="copy-code" className={scriptOnly} />
            {href ? (
              <a data-testid="referral-link" className={button.primary} href={href} target="_blank" rel="noopener noreferrer">
                {t("draw.openLink")}
                <span className={visuallyHidden}>{t("draw.newTab")}</span>
              </a>
            ) : null}
            {/* The share sheet where the system has one; otherwise it copies the link (or the text). */}
            <CopyButton
              value={href ?? shareText}
              label={t("draw.share")}
              copiedLabel={href ? t("draw.linkCopied") : undefined}
              share={{ title: result.platformName, text: shareText, url: href ?? undefined }}
              className={scriptOnly}
            />
          </div>
          <p className={muted}>{t("draw.lruNote")}</p>
          <p>
            <Link to={anotherHref} className={button.gradient}>
              {t("draw.another")}
            </Link>
          </p>
        </div>
      </section>
      <div className={hidden(contents)}>{children}</div>
    </>
  );
}
