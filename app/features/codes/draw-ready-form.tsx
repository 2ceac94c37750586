import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { alert, button, muted, row, stack } from "~/styles/ui.css";
import { useArrivalFocus } from "~/utils/arrival-focus";
import { usePending } from "~/utils/use-pending";
import { drawAnimation } from "./draw-animation";

/**
 * The draw form. It posts to the draw page (`action`), whose route action draws and redirects to
 * the result, or says why nothing was drawn; with JavaScript, Remix's `<Form>` does the same without
 * a full page load, and the result's code loads meanwhile. With nothing
 * to draw (`noCodeMessage`), the page says so once, the button is disabled and the way forward is
 * to share one's own code for this platform.
 */
export function DrawReadyForm({
  action,
  available,
  noCodeMessage,
  shareHref,
}: {
  action: string;
  available: number;
  noCodeMessage?: string | null;
  shareHref?: string;
}) {
  const { t } = useTranslation("platform");
  // Busy while the draw is posted, then while its result page loads.
  const busy = usePending({ intent: "draw", formAction: action });
  return (
    <Form
      method="post"
      action={action}
      className={stack}
      onSubmit={(event) => {
        if (busy) return event.preventDefault();
        drawAnimation.next = true;
      }}
    >
      <input type="hidden" name="intent" value="draw" />
      {noCodeMessage ? (
        <NoCode message={noCodeMessage} />
      ) : (
        <p className={muted} data-testid="available-count">
          {t("landing.available", { count: available })}
        </p>
      )}
      <p className={row}>
        <button type="submit" className={button.gradient} disabled={busy || !!noCodeMessage} data-testid="draw-button">
          {busy ? t("draw.drawing") : t("draw.launch")}
        </button>
        {noCodeMessage && shareHref ? (
          <Link to={shareHref} className={button.primary} data-testid="share-yours">
            {t("draw.shareYours")}
          </Link>
        ) : null}
      </p>
    </Form>
  );
}

function NoCode({ message }: { message: string }) {
  // A draw that found nothing: the focus goes to why (the button it left is now disabled).
  const focus = useArrivalFocus<HTMLParagraphElement>(message);
  return (
    <p className={alert.warning} data-testid="no-code" role="status" tabIndex={-1} ref={focus}>
      {message}
    </p>
  );
}
