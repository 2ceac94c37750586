import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getPlatformById, listAdminPlatforms, listPlatformDeletions } from "~db/repositories/platforms.server";
import * as admin from "~/features/admin/admin.css";
import { errorsOf, FormAlert, type AdminFormReply } from "~/features/admin/forms";
import { RowConfirmStep, RowAction } from "~/features/admin/row-action";
import { confirmationAsked } from "~/utils/confirmation.server";
import { Pager } from "~/components/pager";
import { currentListHref, loadPage } from "~/utils/paging.server";
import { platformTabAction } from "~/features/admin/catalog/platform-actions.server";
import { getT } from "~/i18n/i18next.server";
import { bareList, flush, gapSm, muted, padMd, row, spread, stack, visuallyHidden } from "~/styles/ui.css";
import { requireAdmin } from "~/utils/auth.server";
import { formatDate, formatDateTime } from "~/utils/dates";
import { routeMeta } from "~/utils/meta";
import { keepRetryAfter } from "~/utils/responses.server";
import { buttonClass } from "~/styles/recipes";
import { loadOrFail, withDatabaseNet } from "~/utils/failures.server";
import { PlatformHeader } from "~/features/admin/catalog/platform-header";

export const handle = { i18n: ["admin", "admin-catalog", "offer", "lists"] };

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const [t, { rows: platforms, pager }, deletions] = await Promise.all([
    getT(request, "admin-catalog"),
    loadPage(request, "errors.load.platforms", (page) => listAdminPlatforms(page)),
    loadOrFail(request, "errors.load.platforms", () => listPlatformDeletions()),
  ]);
  const askedDelete = confirmationAsked(request, "delete");
  const confirming = askedDelete === null ? null : await getPlatformById(askedDelete);
  return {
    pager,
    back: currentListHref(url),
    confirming: confirming && confirming.deleting_since === null ? { id: confirming.id, name: confirming.name } : null,
    // Deletions going on in the background (decision 292): shown apart, nothing of them editable.
    deletions: deletions.map((d) => ({ id: d.id, name: d.name, since: d.deleting_since! })),
    platforms: platforms.map((p) => ({
      id: p.id,
      name: p.name,
      slug: p.slug,
      emoji: p.emoji_icon,
      codePattern: p.code_pattern ?? "",
      isActive: p.is_active === 1,
      createdAt: p.created_at,
    })),
    meta: { title: t("platforms.title"), description: t("platforms.title"), path: "/admin/platforms", noindex: true },
  };
});

export const meta = routeMeta;

export const headers = keepRetryAfter;

export const action = withDatabaseNet(async function action({ request }: ActionFunctionArgs) {
  return platformTabAction(request);
});

export default function AdminPlatforms() {
  const { platforms, pager, back, confirming, deletions } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as AdminFormReply | undefined;
  const { t, i18n } = useTranslation("admin-catalog");
  const { t: tl } = useTranslation("lists");
  const deleteQuestion = (name: string) => ({
    question: tl("confirm.deletePlatform", { name }),
    yes: tl("confirm.yesDelete"),
    testId: "delete-platform-confirm",
  });

  return (
    <section className={stack} aria-labelledby="platforms-heading">
      <div className={`${row} ${spread}`}>
        <h2 id="platforms-heading">{t("platforms.title")}</h2>
        <Link to="/admin/platforms/new" className={buttonClass({ tone: "primary", size: "small" })}>
          {t("platforms.create")}
        </Link>
      </div>
      <FormAlert errors={errorsOf(reply, "upload-logo", "file")} ns="admin-catalog" />
      <RejectedEdit reply={reply} />
      {deletions.length > 0 ? (
        <section
          className={`${admin.tableWrap} ${padMd} ${stack} ${gapSm}`}
          aria-labelledby="platform-deletions-heading"
          data-testid="platform-deletions"
        >
          <h3 id="platform-deletions-heading" className={flush}>
            {t("platforms.deletions.title")}
          </h3>
          <ul className={`${bareList} ${flush} ${stack} ${gapSm}`}>
            {deletions.map((d) => (
              <li key={d.id} data-testid={`platform-deleting-${d.id}`}>
                {t("platforms.deletions.item", { name: d.name, since: formatDateTime(d.since, i18n.language) })}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {confirming ? (
        <RowConfirmStep intent="delete" id={confirming.id} confirm={deleteQuestion(confirming.name)} cancelTo={back} />
      ) : null}
      {platforms.length === 0 ? (
        <p className={muted}>{t("platforms.empty")}</p>
      ) : (
        <ul className={`${stack} ${bareList} ${flush}`}>
          {platforms.map((p) => {
            return (
              <li key={p.id} className={`${admin.tableWrap} ${padMd}`} data-testid={`platform-row-${p.slug}`}>
                <div className={`${stack} ${gapSm}`}>
                  <PlatformHeader level={3} platform={p} />
                  <p className={`${muted} ${flush}`}>
                    {t("platforms.createdAt", { date: formatDate(p.createdAt, i18n.language) })} · {t("platforms.pattern")}{" "}
                    <code>{p.codePattern || "—"}</code>
                  </p>
                  <div className={admin.actions}>
                    <RowAction
                      intent="toggle-active"
                      id={p.id}
                      label={p.isActive ? t("platforms.deactivate") : t("platforms.activate")}
                      subject={p.name}
                    />
                    <Link
                      to={`/admin/platforms/${p.id}`}
                      className={buttonClass({ tone: "secondary", size: "small" })}
                      data-testid={`edit-platform-${p.slug}`}
                    >
                      {t("common.edit")}
                      <span className={visuallyHidden}> {p.name}</span>
                    </Link>
                    <Link to={`/${p.slug}`} className={buttonClass({ tone: "ghost", size: "small" })}>
                      {t("platforms.view")}
                      <span className={visuallyHidden}> {p.name}</span>
                    </Link>
                    <RowAction
                      intent="delete"
                      id={p.id}
                      tone="danger"
                      label={t("common.delete")}
                      subject={p.name}
                      confirm={deleteQuestion(p.name)}
                    />
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <Pager {...pager} label={tl("pager.label")} />
    </section>
  );
}

/**
 * An edit posted to the list (its forms live on the editor page, but the list takes every intent):
 * when refused, its messages here, with the way to the platform's editor.
 */
function RejectedEdit({ reply }: { reply: AdminFormReply | undefined }) {
  const { t } = useTranslation("admin-catalog");
  const edit = reply ? /^(update|update-offer|upload-logo|remove-logo)-(\d+)$/.exec(reply.formId) : null;
  if (!reply || !edit) return null;
  const messages = Object.values(reply.result.error ?? {}).flatMap((m) => m ?? []);
  return (
    <div className={`${stack} ${gapSm}`}>
      <FormAlert errors={messages} ns={edit[1] === "update-offer" ? "offer" : "admin-catalog"} />
      <Link to={`/admin/platforms/${edit[2]}`}>{t("platforms.editor.open")}</Link>
    </div>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
