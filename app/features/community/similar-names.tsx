import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as styles from "./suggestions.css";
import type { SimilarName } from "./similarity";

export function SimilarNames({ items }: { items: SimilarName[] }) {
  const { t } = useTranslation("suggest");
  return (
    <ul className={styles.similarList}>
      {items.map((item) => (
        <li key={`${item.kind}-${item.name}`} data-testid="similar-name">
          {/* A live platform is not to be voted for: its page is where the codes are. */}
          {item.kind === "platform" && item.slug ? <Link to={`/${item.slug}`}>{item.name}</Link> : <span>{item.name}</span>}{" "}
          <span className={styles.kindTag}>{t(item.kind === "platform" ? "similar.platform" : "similar.suggestion")}</span>{" "}
          <strong>{t("similar.percent", { percent: item.percent })}</strong>
        </li>
      ))}
    </ul>
  );
}
