import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { buttonClass } from "~/styles/recipes";

const COPIED_RESET_MS = 2000;

/**
 * Copies `value`; says 'copied' for 2000 ms, long enough to read. With `share`, opens the system's
 * share sheet where there is one and copies `value` where there is not. Only JavaScript can copy:
 * where the button is in the server's HTML, give it `scriptOnly` (hidden without scripts, and in
 * place before hydration so nothing moves, decision 180).
 */
export function CopyButton({
  value,
  label,
  copiedLabel,
  testId,
  share,
  className,
}: {
  value: string;
  label: string;
  copiedLabel?: string;
  testId?: string;
  share?: ShareData;
  className?: string;
}) {
  const { t } = useTranslation("platform");
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_RESET_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button
      type="button"
      className={className ? `${buttonClass({ tone: "secondary" })} ${className}` : buttonClass({ tone: "secondary" })}
      data-testid={testId}
      onClick={() => {
        if (share && typeof navigator.share === "function") {
          // Dismissing the sheet rejects: nothing to say.
          void navigator.share(share).catch(() => {});
          return;
        }
        void navigator.clipboard?.writeText(value).then(
          () => setCopied(true),
          () => setCopied(false),
        );
      }}
    >
      <span aria-live="polite">{copied ? (copiedLabel ?? t("draw.copied")) : label}</span>
    </button>
  );
}
