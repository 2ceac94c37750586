import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { buttonClass } from "~/styles/recipes";
import { muted, row, spread } from "~/styles/ui.css";

export interface PagerProps {
  next: string | null;
  prev: string | null;
  total: { count: number; capped: boolean };
  shown: number;
}

/**
 * Paging of every list: plain links (`rel="prev"`/`rel="next"`) to the previous and next pages,
 * with the list's filters kept, so paging needs no JavaScript; and how many rows match in all.
 * Texts in the `lists` namespace (list it in the route's handle.i18n).
 */
export function Pager({ next, prev, total, shown, label }: PagerProps & { label: string }) {
  const { t, i18n } = useTranslation("lists");
  const count = total.count.toLocaleString(i18n.language);
  return (
    <nav aria-label={label} className={`${row} ${spread}`} data-testid="pager">
      <p className={muted} data-testid="pager-total" data-count={total.count} data-capped={total.capped || undefined}>
        {total.capped
          ? t("pager.totalCapped", { count: total.count, formatted: count })
          : t("pager.total", { count: total.count, formatted: count, shown })}
      </p>
      {prev || next ? (
        <div className={row}>
          {prev ? (
            <Link to={prev} rel="prev" className={buttonClass({ tone: "secondary", size: "small" })} data-testid="pager-prev">
              {t("pager.prev")}
            </Link>
          ) : null}
          {next ? (
            <Link to={next} rel="next" className={buttonClass({ tone: "secondary", size: "small" })} data-testid="pager-next">
              {t("pager.next")}
            </Link>
          ) : null}
        </div>
      ) : null}
    </nav>
  );
}
