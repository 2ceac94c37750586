import { useTranslation } from "react-i18next";
import { flush, visuallyHidden } from "~/styles/ui.css";
import { formatDate } from "~/utils/dates";
import * as site from "./site.css";

const WIDTH = 600;
const HEIGHT = 160;
const TOP = 12;
const BOTTOM = 22;
const LEFT = 4;

/**
 * Draws per day as a plain server-rendered SVG (no JS, no chart library). Screen readers get
 * the title, a summary and a table with every day; each bar also carries its own label.
 */
export function DrawsChart({ days }: { days: Array<{ dayStart: string; count: number }> }) {
  const { t, i18n } = useTranslation("admin-site");
  const day = (iso: string | undefined) => formatDate(iso, i18n.language);
  const max = Math.max(1, ...days.map((d) => d.count));
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const slot = (WIDTH - LEFT) / days.length;
  const barWidth = Math.max(2, slot - 4);
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const first = days[0];
  const last = days[days.length - 1];
  return (
    <figure className={flush}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className={site.chart}
        role="img"
        aria-labelledby="draws-chart-title draws-chart-desc"
        data-testid="draws-chart"
      >
        <title id="draws-chart-title">{t("requests.chart.title")}</title>
        <desc id="draws-chart-desc">
          {t("requests.chart.desc", { count: total, from: day(first?.dayStart), to: day(last?.dayStart), max })}
        </desc>
        <line x1={LEFT} x2={WIDTH} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM} className={site.chartAxis} />
        {days.map((d, i) => {
          const h = (d.count / max) * plotHeight;
          return (
            <rect
              key={d.dayStart}
              x={LEFT + i * slot + 2}
              y={HEIGHT - BOTTOM - h}
              width={barWidth}
              height={h}
              className={site.chartBar}
              data-count={d.count}
            >
              <title>{t("requests.chart.bar", { date: day(d.dayStart), count: d.count })}</title>
            </rect>
          );
        })}
        {first ? (
          <text x={LEFT} y={HEIGHT - 6} className={site.chartLabel}>
            {day(first.dayStart)}
          </text>
        ) : null}
        {last ? (
          <text x={WIDTH} y={HEIGHT - 6} textAnchor="end" className={site.chartLabel}>
            {day(last.dayStart)}
          </text>
        ) : null}
      </svg>
      <table className={visuallyHidden} data-testid="draws-chart-table">
        <caption>{t("requests.chart.title")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("requests.chart.day")}</th>
            <th scope="col">{t("requests.chart.count")}</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.dayStart}>
              <td>{day(d.dayStart)}</td>
              <td>{d.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
