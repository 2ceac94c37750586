import type { LoaderFunctionArgs } from "@remix-run/node";
import type { PageCacheHandle } from "~/utils/page-cache.server";
import { Form, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getDashboardStats } from "~db/repositories/daily-figures.server";
import * as admin from "~/features/admin/admin.css";
import { getT } from "~/i18n/i18next.server";
import { container, flush, muted } from "~/styles/ui.css";
import { requireAdmin } from "~/utils/auth.server";
import { routeMeta } from "~/utils/meta";
import { buttonClass } from "~/styles/recipes";
import { withDatabaseNet } from "~/utils/failures.server";

// Admin pages are never kept by the page cache (they need a session anyway).
export const handle = {
  i18n: ["admin", "admin-catalog", "admin-site", "assistant"],
  pageCache: false,
} satisfies PageCacheHandle & { i18n: string[] };

/** The tabs, in the order admins use them most; the AI assistant is the default one. */
const ADMIN_TABS = [
  { to: "assistant", key: "assistant:tab" },
  { to: "platforms/new", key: "tabs.newPlatform" },
  { to: "codes", key: "tabs.codes" },
  { to: "platforms", key: "tabs.platforms", end: true },
  { to: "partnerships", key: "tabs.partnerships" },
  { to: "requests", key: "tabs.requests" },
  { to: "deletions", key: "tabs.deletions" },
  { to: "suggestions", key: "tabs.suggestions" },
  { to: "scores", key: "tabs.scores" },
  { to: "settings", key: "tabs.settings" },
] as const;

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAdmin(request);
  const [stats, t] = await Promise.all([getDashboardStats(), getT(request, "admin")]);
  return {
    email: user.email,
    stats,
    meta: { title: t("dashboard.title"), description: t("dashboard.title"), path: "/admin", noindex: true },
  };
});

export const meta = routeMeta;

export default function AdminLayout() {
  const { email, stats } = useLoaderData<typeof loader>();
  const { t } = useTranslation("admin");
  const cards = [
    { key: "stats.activeCodes", value: stats.activeCodes },
    { key: "stats.totalCodes", value: stats.totalCodes },
    { key: "stats.todayRequests", value: stats.todayRequests },
    { key: "stats.totalRequests", value: stats.totalRequests },
  ];
  return (
    <div className={`${container} ${admin.shell}`}>
      <div className={admin.topBar}>
        <div>
          <h1 className={flush}>{t("dashboard.title")}</h1>
          <p className={`${muted} ${flush}`}>{t("dashboard.signedInAs", { email })}</p>
        </div>
        <Form method="post" action="/admin/logout">
          <button type="submit" className={buttonClass({ tone: "secondary", size: "small" })}>
            {t("logout.submit")}
          </button>
        </Form>
      </div>
      <section aria-label={t("stats.label")} className={admin.stats}>
        {cards.map((c) => (
          <div key={c.key} className={admin.statCard} data-testid={`stat-${c.key.split(".")[1]}`}>
            <p className={admin.statValue}>{c.value}</p>
            <p className={admin.statLabel}>{t(c.key)}</p>
          </div>
        ))}
      </section>
      <nav id="admin-tabs" aria-label={t("tabs.label")}>
        <ul className={admin.tabs}>
          {ADMIN_TABS.map((tab) => (
            <li key={tab.to}>
              <NavLink to={tab.to} className={admin.tab} end={"end" in tab ? tab.end : false} prefetch="intent">
                {t(tab.key)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
