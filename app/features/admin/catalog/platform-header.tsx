import { useTranslation } from "react-i18next";
import { flush, muted, row, spread } from "~/styles/ui.css";
import { badgeClass } from "~/styles/recipes";

/**
 * A platform's name line in the admin: emoji, name, slug and its active badge; an h3 in the
 * platforms list's rows, the h2 of its editor page.
 */
export function PlatformHeader({
  level,
  id,
  platform: p,
}: {
  level: 2 | 3;
  id?: string;
  platform: { name: string; slug: string; emoji: string; isActive: boolean };
}) {
  const { t } = useTranslation("admin-catalog");
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <div className={`${row} ${spread}`}>
      <Heading id={id} className={flush}>
        <span aria-hidden="true">{p.emoji} </span>
        {p.name} <span className={muted}>/{p.slug}</span>
      </Heading>
      <span className={badgeClass()}>{p.isActive ? t("common.active") : t("common.inactive")}</span>
    </div>
  );
}
