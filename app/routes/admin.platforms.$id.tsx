import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getPlatformById } from "~db/repositories/platforms.server";
import { listPlatformOffersOf } from "~db/repositories/platform-offers.server";
import * as admin from "~/features/admin/admin.css";
import { errorsOf, FormAlert, formIdOf, useAdminMessage, valueOf, type AdminFormReply } from "~/features/admin/forms";
import { Field, SubmitButton } from "~/components/forms";
import { RowAction } from "~/features/admin/row-action";
import { MAX_LOGO_BYTES } from "~/features/admin/catalog/logo.server";
import { LOGO_VARIANTS } from "~/features/admin/catalog/schemas";
import { platformTabAction } from "~/features/admin/catalog/platform-actions.server";
import { OfferEditor } from "~/features/admin/catalog/offer-editor";
import { getT } from "~/i18n/i18next.server";
import { flush, gapSm, input, muted, padMd, stack, visuallyHidden } from "~/styles/ui.css";
import { requireAdmin } from "~/utils/auth.server";
import { formatDate } from "~/utils/dates";
import { routeMeta } from "~/utils/meta";
import { keepRetryAfter, notFound } from "~/utils/responses.server";
import { parseRowId } from "~/utils/row-id";
import { loadOrFail, withDatabaseNet } from "~/utils/failures.server";
import { PlatformHeader } from "~/features/admin/catalog/platform-header";

/**
 * One platform's editor (/admin/platforms/{id}): its details, its offer in the four languages and its
 * logos. The list (admin.platforms._index.tsx) keeps the one-click row actions and links here; both
 * share one action, so the list still takes every intent.
 */
export const handle = { i18n: ["admin", "admin-catalog", "offer", "lists"] };

export const loader = withDatabaseNet(async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const id = parseRowId(params.id);
  if (id === null) throw await notFound(request, "admin-catalog:errors.notFound");
  const [t, p, offers] = await Promise.all([
    getT(request, "admin-catalog"),
    loadOrFail(request, "errors.load.platforms", () => getPlatformById(id)),
    loadOrFail(request, "errors.load.platforms", () => listPlatformOffersOf([id])),
  ]);
  // A platform being deleted is gone for every edit (decision 292).
  if (!p || p.deleting_since !== null) throw await notFound(request, "admin-catalog:errors.notFound");
  const offer = offers.map(({ platform_id: _id, updated_at: _updated, ...o }) => o)[0] ?? null;
  const title = t("platforms.editor.title", { name: p.name });
  return {
    platform: {
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
    },
    offer,
    maxLogoKb: MAX_LOGO_BYTES / 1024,
    meta: { title, description: title, path: `/admin/platforms/${p.id}`, noindex: true },
  };
});

export const meta = routeMeta;

export const headers = keepRetryAfter;

export const action = withDatabaseNet(async function action({ request, params }: ActionFunctionArgs) {
  const id = parseRowId(params.id);
  if (id === null) throw await notFound(request, "admin-catalog:errors.notFound");
  return platformTabAction(request, id);
});

export default function AdminPlatformEditor() {
  const { platform: p, offer, maxLogoKb } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as AdminFormReply | undefined;
  const { t, i18n } = useTranslation("admin-catalog");
  const message = useAdminMessage("admin-catalog");
  const err = (intent: string, name: string) => errorsOf(reply, formIdOf(intent, p.id), name);
  const val = (name: string) => valueOf(reply, formIdOf("update", p.id), name);
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
  const uploadErrors = [...err("upload-logo", "file"), ...err("upload-logo", "variant"), ...err("upload-logo", "")];

  return (
    <section className={stack} aria-labelledby="platform-heading" data-testid={`platform-editor-${p.slug}`}>
      <p className={flush}>
        <Link to="/admin/platforms">{t("platforms.editor.back")}</Link>
      </p>
      <PlatformHeader level={2} id="platform-heading" platform={p} />
      <p className={`${muted} ${flush}`}>
        {t("platforms.createdAt", { date: formatDate(p.createdAt, i18n.language) })} ·{" "}
        <Link to={`/${p.slug}`}>
          {t("platforms.view")}
          <span className={visuallyHidden}> {p.name}</span>
        </Link>
      </p>
      <FormAlert errors={errorsOf(reply, "upload-logo", "file")} ns="admin-catalog" />
      <section className={`${admin.tableWrap} ${padMd}`} aria-labelledby="platform-details-heading">
        <h3 id="platform-details-heading" className={flush}>
          {t("platforms.editor.details")}
        </h3>
        <Form method="post" className={admin.formGrid} preventScrollReset>
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
      </section>
      <div className={`${admin.tableWrap} ${padMd}`}>
        <OfferEditor platform={p} offer={offer} reply={reply} />
      </div>
      <section className={`${admin.tableWrap} ${padMd} ${stack} ${gapSm}`} aria-labelledby="platform-logos-heading">
        <h3 id="platform-logos-heading" className={flush}>
          {t("platforms.editor.logos")}
        </h3>
        <div className={admin.formGrid}>
          {LOGO_VARIANTS.map((variant) => {
            const current = p.logos[variant];
            const forThis = (valueOf(reply, formIdOf("upload-logo", p.id), "variant") ?? "light") === variant;
            const shown = forThis ? uploadErrors : [];
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
                    id={`logo-${variant}-${p.id}`}
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
      </section>
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
