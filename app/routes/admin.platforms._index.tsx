import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getPlatformById, listAdminPlatforms, listPlatformDeletions } from "~db/repositories/platforms.server";
import { runWrite } from "~db/availability.server";
import * as admin from "~/features/admin/admin.css";
import { errorsOf, FormAlert, formIdOf, useAdminMessage, valueOf, type AdminFormReply } from "~/features/admin/forms";
import { Field, SubmitButton } from "~/components/forms";
import { readAdminForm, rejectWith, refusedForm } from "~/features/admin/forms.server";
import { RowConfirmStep, RowAction } from "~/features/admin/row-action";
import { askToConfirm, confirmationAsked, isConfirmed } from "~/utils/confirmation.server";
import { Pager } from "~/components/pager";
import { currentListHref, loadPage } from "~/utils/paging.server";
import { MAX_LOGO_BYTES } from "~/features/admin/catalog/logo.server";
import { LOGO_VARIANTS } from "~/features/admin/catalog/schemas";
import { PLATFORM_FAILURE_KEYS, PLATFORM_INTENTS, runPlatformAction } from "~/features/admin/catalog/platform-actions.server";
import { OfferEditor } from "~/features/admin/catalog/offer-editor";
import { listPlatformOffersOf } from "~db/repositories/platform-offers.server";
import { getT } from "~/i18n/i18next.server";
import { bareList, flush, gapSm, input, muted, padMd, row, spaceAbove, spread, stack, visuallyHidden } from "~/styles/ui.css";
import { requireAdmin } from "~/utils/auth.server";
import { formatDate, formatDateTime } from "~/utils/dates";
import { routeMeta } from "~/utils/meta";
import { badRequest, notFound, keepRetryAfter } from "~/utils/responses.server";
import { parseRowId } from "~/utils/row-id";
import { parseIntent } from "~/utils/intent.server";
import { badgeClass, buttonClass } from "~/styles/recipes";
import { loadOrFail } from "~/utils/failures.server";

export const handle = { i18n: ["admin", "admin-catalog", "offer", "lists"] };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const [t, { rows: platforms, pager }, deletions] = await Promise.all([
    getT(request, "admin-catalog"),
    loadPage(request, "errors.load.platforms", (page) => listAdminPlatforms(page)),
    loadOrFail(request, "errors.load.platforms", () => listPlatformDeletions()),
  ]);
  // The page's own platforms' offers: a tab of many platforms reads one page of them, not all.
  const ids = platforms.map((p) => p.id);
  const offers = await loadOrFail(request, "errors.load.platforms", () => listPlatformOffersOf(ids));
  const offerOf = new Map(offers.map(({ platform_id, updated_at: _updated, ...offer }) => [platform_id, offer]));
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
      description: p.description,
      hosts: p.hosts,
      template: p.referral_url_template ?? "",
      isActive: p.is_active === 1,
      logos: { light: p.custom_logo_light_url, dark: p.custom_logo_dark_url },
      createdAt: p.created_at,
      offer: offerOf.get(p.id) ?? null,
    })),
    maxLogoKb: MAX_LOGO_BYTES / 1024,
    meta: { title: t("platforms.title"), description: t("platforms.title"), path: "/admin/platforms", noindex: true },
  };
}

export const meta = routeMeta;

export const headers = keepRetryAfter;

export async function action({ request }: ActionFunctionArgs) {
  // The body is read only once the admin is known: a stranger's upload is never parsed.
  await requireAdmin(request);
  const { form, tooLarge } = await readAdminForm(request);
  if (tooLarge) return rejectWith("upload-logo", "platforms.errors.logoTooLarge", { field: "file", status: 413 });
  const intent = await parseIntent(request, form, PLATFORM_INTENTS);
  const id = parseRowId(form.get("id"));
  if (id === null) throw await badRequest(request);
  const platform = await getPlatformById(id);
  // A platform being deleted is gone for every edit; deleting it again joins its deletion.
  if (!platform || (platform.deleting_since !== null && intent !== "delete"))
    throw await notFound(request, "admin-catalog:errors.notFound");
  const formId = formIdOf(intent, id);
  const gone = () => notFound(request, "admin-catalog:errors.notFound");
  const back = currentListHref(new URL(request.url));
  if (intent === "delete" && !isConfirmed(form)) return askToConfirm(back, "delete", platform.id);

  return runWrite(
    formId,
    () => runPlatformAction(form, intent, platform, formId, gone, back),
    refusedForm(formId, PLATFORM_FAILURE_KEYS[intent], form),
  );
}

export default function AdminPlatforms() {
  const { platforms, maxLogoKb, pager, back, confirming, deletions } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as AdminFormReply | undefined;
  const { t, i18n } = useTranslation("admin-catalog");
  const { t: tl } = useTranslation("lists");
  const message = useAdminMessage("admin-catalog");
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
            const err = (intent: string, name: string) => errorsOf(reply, formIdOf(intent, p.id), name);
            const val = (name: string) => valueOf(reply, formIdOf("update", p.id), name);
            const updateErrors = ["name", "slug", "code_pattern", "description", "hosts", "referral_url_template", ""].some(
              (n) => err("update", n).length > 0,
            );
            const editField = (name: string, labelKey: string, value: string, required = false) => (
              <Field key={name} id={`${name}-${p.id}`} label={t(labelKey)} errors={err("update", name)} translate={message}>
                {(control) =>
                  name === "description" ? (
                    <textarea {...control} name={name} className={input} rows={2} defaultValue={val(name) ?? value} />
                  ) : (
                    <input {...control} name={name} className={input} required={required} defaultValue={val(name) ?? value} />
                  )
                }
              </Field>
            );
            return (
              <li key={p.id} className={`${admin.tableWrap} ${padMd}`} data-testid={`platform-row-${p.slug}`}>
                <div className={`${stack} ${gapSm}`}>
                  <div className={`${row} ${spread}`}>
                    <h3 className={flush}>
                      <span aria-hidden="true">{p.emoji} </span>
                      {p.name} <span className={muted}>/{p.slug}</span>
                    </h3>
                    <span className={badgeClass()}>{p.isActive ? t("common.active") : t("common.inactive")}</span>
                  </div>
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
                  <details open={updateErrors}>
                    <summary>{t("common.edit")}</summary>
                    <Form method="post" className={`${admin.formGrid} ${spaceAbove}`} preventScrollReset>
                      <input type="hidden" name="intent" value="update" />
                      <input type="hidden" name="id" value={p.id} />
                      {editField("name", "platformForm.name", p.name, true)}
                      {editField("slug", "platformForm.slug", p.slug, true)}
                      {editField("code_pattern", "platformForm.codePattern", p.codePattern, true)}
                      {editField("hosts", "platformForm.hosts", p.hosts)}
                      {editField("referral_url_template", "platformForm.template", p.template)}
                      {editField("description", "platformForm.description", p.description)}
                      <FormAlert errors={err("update", "")} ns="admin-catalog" />
                      <div>
                        <SubmitButton intent="update" id={p.id} size="small">
                          {t("common.save")}
                        </SubmitButton>
                      </div>
                    </Form>
                  </details>
                  <OfferEditor platform={p} offer={p.offer} reply={reply} />
                  <div className={admin.formGrid}>
                    {LOGO_VARIANTS.map((variant) => {
                      const current = p.logos[variant];
                      const uploadErrors = [
                        ...errorsOf(reply, formIdOf("upload-logo", p.id), "file"),
                        ...errorsOf(reply, formIdOf("upload-logo", p.id), "variant"),
                        ...errorsOf(reply, formIdOf("upload-logo", p.id), ""),
                      ];
                      const forThis = (valueOf(reply, formIdOf("upload-logo", p.id), "variant") ?? "light") === variant;
                      const shown = forThis ? uploadErrors : [];
                      const inputId = `logo-${variant}-${p.id}`;
                      return (
                        <div key={variant} className={`${stack} ${gapSm}`}>
                          <strong>{t(`platforms.logo.${variant}`)}</strong>
                          {current ? (
                            <img
                              src={current}
                              alt={t("platforms.logo.alt", { name: p.name, variant: t(`platforms.logo.${variant}`) })}
                              width={64}
                              height={64}
                              className={admin.logoPreview[variant]}
                            />
                          ) : (
                            <span className={muted}>{t("platforms.logo.none")}</span>
                          )}
                          <Form method="post" encType="multipart/form-data" className={admin.inlineForm} preventScrollReset>
                            <input type="hidden" name="intent" value="upload-logo" />
                            <input type="hidden" name="id" value={p.id} />
                            <input type="hidden" name="variant" value={variant} />
                            <Field
                              id={inputId}
                              label={t("platforms.logo.file", { variant: t(`platforms.logo.${variant}`), name: p.name })}
                              hideLabel
                              description={t("platforms.logo.hint", { kb: maxLogoKb })}
                              errors={shown.slice(0, 1)}
                              translate={message}
                            >
                              {(control) => (
                                <input
                                  {...control}
                                  type="file"
                                  name="file"
                                  accept="image/png,image/jpeg,image/webp"
                                  required
                                  className={admin.fileInput}
                                />
                              )}
                            </Field>
                            <SubmitButton intent="upload-logo" id={p.id} tone="secondary" size="small">
                              {t("platforms.logo.upload")}
                            </SubmitButton>
                          </Form>
                          {current ? (
                            <RowAction
                              intent="remove-logo"
                              id={p.id}
                              extra={{ variant }}
                              tone="danger"
                              label={t("platforms.logo.remove")}
                              accessibleName={`${t("platforms.logo.remove")} ${t(`platforms.logo.${variant}`)} ${p.name}`}
                            />
                          ) : null}
                          {variant === "light" ? (
                            <FormAlert errors={errorsOf(reply, formIdOf("remove-logo", p.id), "")} ns="admin-catalog" />
                          ) : null}
                        </div>
                      );
                    })}
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

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
