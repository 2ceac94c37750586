import { Link } from "@remix-run/react";
import { useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { flush, muted, scriptOnly } from "~/styles/ui.css";
import { ArrowButton } from "./arrow-button";
import * as styles from "./community.css";
import { PartnerCard, type PartnerView } from "./partner-card";

const PARTNERS_PER_VIEW = 3;

/** 'Autres remises' on the home page: 3 at a time, a scroll-snap strip, arrows (JS) when more than 3. */
export function PartnerStrip({ partners }: { partners: PartnerView[] }) {
  const { t } = useTranslation("home");
  const listId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const scroll = (direction: 1 | -1) => {
    const list = listRef.current;
    if (!list) return;
    const atEnd = list.scrollLeft + list.clientWidth >= list.scrollWidth - 2;
    const atStart = list.scrollLeft <= 2;
    const behavior: ScrollBehavior = window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";
    if (direction === 1 && atEnd) list.scrollTo({ left: 0, behavior });
    else if (direction === -1 && atStart) list.scrollTo({ left: list.scrollWidth, behavior });
    else list.scrollBy({ left: direction * list.clientWidth, behavior });
  };

  return (
    <section aria-labelledby="partners-heading" className={styles.stripSection}>
      <div className={styles.stripHeader}>
        <h2 id="partners-heading" className={flush}>
          {t("partners.heading")}
        </h2>
        <div className={styles.stripTools}>
          {/* In the server's HTML too (hidden without JS), so hydration moves nothing. */}
          {partners.length > PARTNERS_PER_VIEW ? (
            <span className={`${styles.stripTools} ${scriptOnly}`}>
              <ArrowButton direction="previous" controls={listId} label={t("partners.previous")} onClick={() => scroll(-1)} />
              <ArrowButton direction="next" controls={listId} label={t("partners.next")} onClick={() => scroll(1)} />
            </span>
          ) : null}
          <Link to="/partnerships">{t("partners.seeAll")}</Link>
        </div>
      </div>
      {partners.length === 0 ? (
        <p className={muted}>{t("partners.empty")}</p>
      ) : (
        <ul ref={listRef} id={listId} className={styles.strip} data-testid="partner-strip">
          {partners.map((p) => (
            <li key={p.id} className={styles.stripItem}>
              <PartnerCard partner={p} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
