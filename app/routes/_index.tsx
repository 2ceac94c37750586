import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { assignInlineVars } from "@vanilla-extract/dynamic";
import { useTranslation } from "react-i18next";
import { listHomePlatforms } from "~db/repositories/platforms.server";
import { getLanguage, getT } from "~/i18n/i18next.server";
import { gradientFrom, gradientTo } from "~/styles/theme.css";
import { button, card, container, gradientHero, muted, section, snapItem, snapList } from "~/styles/ui.css";
import { routeMeta } from "~/utils/meta";

export const handle = { i18n: ["home"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const [t, language, platforms] = await Promise.all([getT(request, "home"), getLanguage(request), listHomePlatforms()]);
  return {
    language,
    platforms: platforms.map((p) => ({ slug: p.slug, name: p.name, emoji: p.emoji_icon, from: p.gradient_from, to: p.gradient_to })),
    meta: { title: t("meta.title"), description: t("meta.description"), path: "/" },
  };
}

export const meta = routeMeta;

export default function Home() {
  const { platforms } = useLoaderData<typeof loader>();
  const { t } = useTranslation("home");
  return (
    <div className={container}>
      <section className={gradientHero}>
        <h1>{t("hero.title")}</h1>
        <p>{t("hero.subtitle")}</p>
      </section>
      <section className={section} aria-labelledby="platforms-heading">
        <h2 id="platforms-heading">{t("platforms.heading")}</h2>
        {platforms.length === 0 ? (
          <p className={muted}>{t("platforms.empty")}</p>
        ) : (
          <ul className={snapList} data-testid="platform-list">
            {platforms.map((p) => (
              <li key={p.slug} className={snapItem}>
                <div className={card} style={assignInlineVars({ [gradientFrom]: p.from, [gradientTo]: p.to })}>
                  <h3>
                    <span aria-hidden="true">{p.emoji} </span>
                    {p.name}
                  </h3>
                  <Link to={`/${p.slug}`} className={button.gradient}>
                    {t("platforms.getCode", { name: p.name })}
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
