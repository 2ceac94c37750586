import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as admin from "~/features/admin/admin.css";
import { RowAction } from "~/features/admin/row-action";
import { card, muted, stack } from "~/styles/ui.css";
import { formatDateTime } from "~/utils/dates";
import * as trust from "./trust.css";
import { ReasonTally, type ReasonCounts } from "~/features/offer/reason-tally";

export interface PausedCodeView {
  id: number;
  code: string;
  platformName: string;
  platformSlug: string;
  pausedAt: string | null;
  timesServed: number;
  /** Latest answers, newest first; `address` is a short prefix of the keyed hash (tells addresses apart, no more). */
  reports: Array<{ id: number; outcome: "worked" | "failed"; reason: string | null; createdAt: string; address: string }>;
}

/** Admin, codes tab: codes paused after failing answers, with those answers, and a restore button. */
export function PausedCodes({ codes }: { codes: PausedCodeView[] }) {
  const { t, i18n } = useTranslation(["trust", "offer"]);
  return (
    <section className={`${card} ${stack}`} aria-labelledby="paused-heading" data-testid="paused-codes">
      <h3 id="paused-heading" className={trust.flush}>
        {t("admin.pausedHeading", { count: codes.length })}
      </h3>
      <p className={`${muted} ${trust.flush}`}>{t("admin.pausedIntro")}</p>
      {codes.length === 0 ? null : (
        <ul className={`${stack} ${trust.plainList}`}>
          {codes.map((c) => (
            <li key={c.id} className={`${stack} ${trust.tight}`} data-testid={`paused-${c.code}`}>
              <div className={admin.actions}>
                <strong>{c.code}</strong>
                <Link to={`/admin/codes?platform=${encodeURIComponent(c.platformSlug)}`}>{c.platformName}</Link>
                <span className={muted}>{t("admin.pausedAt", { date: formatDateTime(c.pausedAt, i18n.language) })}</span>
                <RowAction intent="restore" id={c.id} tone="primary" label={t("admin.restore")} subject={c.code} />
              </div>
              <p className={trust.flush} data-testid="paused-state">
                {t("admin.pausedBy.reports")} · {t("offer:admin.reasonsShown")}
              </p>
              <ReasonTally tally={tallyOf(c.reports)} />
              <table className={admin.table}>
                <caption className={`${muted} ${trust.caption}`}>{t("admin.reportsCaption", { code: c.code })}</caption>
                <thead>
                  <tr>
                    <th className={admin.cell} scope="col">
                      {t("admin.columns.date")}
                    </th>
                    <th className={admin.cell} scope="col">
                      {t("admin.columns.outcome")}
                    </th>
                    <th className={admin.cell} scope="col">
                      {t("offer:admin.reasonColumn")}
                    </th>
                    <th className={admin.cell} scope="col">
                      {t("admin.columns.address")}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {c.reports.map((r) => (
                    <tr key={r.id}>
                      <td className={admin.cell}>{formatDateTime(r.createdAt, i18n.language)}</td>
                      <td className={admin.cell}>
                        {r.outcome === "worked" ? t("admin.outcome.worked") : t("admin.outcome.failed")}
                      </td>
                      <td className={admin.cell}>{r.reason ? t(`offer:reasons.short.${r.reason}`) : "—"}</td>
                      <td className={admin.cell}>
                        <code>{r.address}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export interface FailingNetworkView {
  /** A short prefix of the network's keyed hash: tells networks apart, no more. */
  network: string;
  codes: number;
  failures: number;
  lastAt: string;
}

/**
 * Admin, codes tab: the alert when one network's draws failed several codes within a few days
 * (decision 315): a competitor's script, or a real outage worth a look. Shown only when there is one.
 */
export function FailingNetworks({ networks, days }: { networks: FailingNetworkView[]; days: number }) {
  const { t, i18n } = useTranslation("trust");
  if (networks.length === 0) return null;
  return (
    <section
      className={`${card} ${stack}`}
      aria-labelledby="failing-networks-heading"
      data-testid="failing-networks"
      role="alert"
    >
      <h3 id="failing-networks-heading" className={trust.flush}>
        {t("admin.networksHeading", { count: networks.length })}
      </h3>
      <p className={`${muted} ${trust.flush}`}>{t("admin.networksIntro", { count: days })}</p>
      <ul className={`${stack} ${trust.plainList}`}>
        {networks.map((n) => (
          <li key={n.network} data-testid="failing-network">
            <code>{n.network}</code> · {t("admin.networkCodes", { count: n.codes, failures: n.failures })} ·{" "}
            <span className={muted}>{formatDateTime(n.lastAt, i18n.language)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The reasons of the failed answers shown (a failure without a reason counts under `none`). */
function tallyOf(reports: PausedCodeView["reports"]): ReasonCounts {
  const tally: Record<string, number> = {};
  for (const r of reports) if (r.outcome === "failed") tally[r.reason ?? "none"] = (tally[r.reason ?? "none"] ?? 0) + 1;
  return tally as ReasonCounts;
}
