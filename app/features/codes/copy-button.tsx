import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import {} from "~/styles/ui.css";
import { buttonClass } from "~/styles/recipes";

const COPIED_RESET_MS = 2000;

/** Copies `value`; says 'copied' for 2000 ms, long enough to read. Rendered only when JS runs. */
export function CopyButton({
  value,
  label,
  copiedLabel,
  testId,
}: {
  value: string;
  label: string;
  copiedLabel?: string;
  testId?: string;
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
      className={buttonClass({ tone: "secondary" })}
      data-testid={testId}
      onClick={() => {
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
