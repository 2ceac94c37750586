import type { LoaderFunctionArgs } from "@remix-run/node";
import { AdminTable, Cell } from "~/features/admin/admin-table";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { drawsPerDay } from "~db/repositories/daily-figures.server";
import { listDraws } from "~db/repositories/draw-log.server";
import { listPlatformOptions } from "~db/repositories/platforms.server";
import { ListFilters, SelectFilter, TextFilter } from "~/features/admin/list-filters";
import { dayRangeOf } from "~/features/admin/list-filters.server";
import { Pager } from "~/components/pager";
import { loadPage } from "~/utils/paging.server";
import { DrawsChart } from "~/features/admin/site/draws-chart";
import * as site from "~/features/admin/site/site.css";
import { getT } from "~/i18n/i18next.server";
import { card, muted, stack } from "~/styles/ui.css";
import { requireAdmin } from "~/utils/auth.server";
import { formatDateTime } from "~/utils/dates";
import { routeMeta } from "~/utils/meta";
import { invariantResponse } from "~/utils/responses.server";
import { loadOrFail, withDatabaseNet } from "~/utils/failures.server";

export const handle = { i18n: ["admin", "admin-site", "lists"] };

const PATH = "/admin/requests";

/**
 * Read only: the draw log (pages of 50, newest first) and draws per day, all platforms or one
 * (?platform=slug), the log optionally for one day (?date=YYYY-MM-DD).
 */
export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const slug = new URL(request.url).searchParams.get("platform") || null;
  const [platforms, t, range] = await Promise.all([
    loadOrFail(request, "errors.load.platforms", () => listPlatformOptions()),
    getT(request, "admin-site"),
    dayRangeOf(request),
  ]);
  const selected = slug ? (platforms.find((p) => p.slug === slug) ?? null) : null;
  invariantResponse(!slug || selected, t("requests.unknownPlatform"), 404);
  const platformId = selected?.id ?? null;
  const [{ rows: draws, pager }, days] = await Promise.all([
    loadPage(request, "errors.load.generic", (page) => listDraws({ platformId, range }, page)),
    loadOrFail(request, "errors.load.generic", () => drawsPerDay(platformId)),
  ]);
  return {
    platforms,
    selected: selected?.slug ?? "",
    date: range?.day ?? null,
    draws,
    days,
    pager,
    meta: { title: t("requests.title"), description: t("requests.description"), path: PATH, noindex: true },
  };
});

export const meta = routeMeta;

export default function AdminRequests() {
  const { platforms, selected, date, draws, days, pager } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("admin-site");
  const { t: tl } = useTranslation("lists");
  const selectedName = platforms.find((p) => p.slug === selected)?.name;

  return (
    <div className={site.panel}>
      <ListFilters resetTo="/admin/requests" label={t("requests.filter.label")} submitLabel={t("requests.filter.submit")}>
        <SelectFilter
          name="platform"
          label={t("requests.filter.platform")}
          value={selected}
          all={t("requests.filter.all")}
          options={platforms.map((p) => ({ value: p.slug, label: p.name }))}
        />
        <TextFilter name="date" type="date" label={tl("filters.date")} value={date} />
      </ListFilters>

      <section className={`${card} ${stack}`} aria-labelledby="draws-chart-heading">
        <h2 id="draws-chart-heading" className={site.sectionHeading}>
          {selectedName ? t("requests.chart.headingFor", { name: selectedName }) : t("requests.chart.heading")}
        </h2>
        <DrawsChart days={days} />
      </section>

      <section className={stack} aria-labelledby="draws-list-heading">
        <h2 id="draws-list-heading" className={site.sectionHeading}>
          {t("requests.listHeading", { n: draws.length })}
        </h2>
        {draws.length === 0 ? (
          <p className={muted} data-testid="draws-empty">
            {t("requests.empty")}
          </p>
        ) : (
          // A keyboard-focusable scroll region, 600 px at most.
          <div
            className={site.scrollRegion}
            // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
            tabIndex={0}
            role="region"
            aria-label={t("requests.scrollLabel")}
            data-testid="draws-region"
          >
            <AdminTable
              columns={(["date", "platform", "code"] as const).map((c) => t(`requests.columns.${c}`))}
              testId="draws-table"
              headClassName={site.stickyHead}
              wrap={false}
            >
              {draws.map((d) => (
                <tr key={d.id} data-testid="draw-row" data-id={d.id}>
                  <Cell label={t("requests.columns.date")}>{formatDateTime(d.created_at, i18n.language)}</Cell>
                  <Cell label={t("requests.columns.platform")}>{d.platform_name}</Cell>
                  <Cell label={t("requests.columns.code")} className={site.wrapText}>
                    <code>{d.served_code}</code>
                    {d.served_code_id === null ? <span className={muted}> {t("requests.codeGone")}</span> : null}
                  </Cell>
                </tr>
              ))}
            </AdminTable>
          </div>
        )}
        <Pager {...pager} label={tl("pager.label")} />
      </section>
    </div>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
