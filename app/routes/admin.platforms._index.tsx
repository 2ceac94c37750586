import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  deletePlatform,
  getPlatformById,
  listAdminPlatforms,
  setPlatformLogo,
  SlugTakenError,
  togglePlatformActive,
  updatePlatform,
} from "~db/repositories/admin-catalog.server";
import * as admin from "~/features/admin/admin.css";
import { errorsOf, FieldErrors, FormAlert, RowButton, valueOf } from "~/features/admin/catalog/components";
import { readAdminForm, rowError, rowIdOf, type RowActionData } from "~/features/admin/catalog/forms.server";
import { detectImageKind, MAX_LOGO_BYTES, removeStoredLogo, storeLogo } from "~/features/admin/catalog/logo.server";
import { deriveUrlRules, normalizeHosts } from "~/features/admin/catalog/rules";
import { LOGO_VARIANTS, logoVariantSchema, platformUpdateSchema } from "~/features/admin/catalog/schemas";
import { getT } from "~/i18n/i18next.server";
import { badge, button, buttonSmall, field, input, label, muted, row, stack, visuallyHidden } from "~/styles/ui.css";
import { requireAdmin } from "~/utils/auth.server";
import { formatDate } from "~/utils/dates";
import { routeMeta } from "~/utils/meta";
import { redirectWithToast } from "~/utils/toast.server";
import { loadOrFail } from "~/utils/failures.server";

export const handle = { i18n: ["admin", "admin-catalog"] };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [t, platforms] = await Promise.all([
    getT(request, "admin-catalog"),
    loadOrFail(request, "errors.load.platforms", () => listAdminPlatforms()),
  ]);
  return {
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
    })),
    maxLogoKb: MAX_LOGO_BYTES / 1024,
    meta: { title: t("platforms.title"), description: t("platforms.title"), path: "/admin/platforms", noindex: true },
  };
}

export const meta = routeMeta;

const BACK = "/admin/platforms";

export async function action({ request }: ActionFunctionArgs) {
  // The body is read only once the admin is known: a stranger's upload is never parsed.
  await requireAdmin(request);
  const { form, tooLarge } = await readAdminForm(request);
  if (tooLarge) return rowError("upload-logo", null, "platforms.errors.logoTooLarge", 413, "file");
  const intent = String(form.get("intent") ?? "");
  const id = rowIdOf(form);
  const platform = id ? await getPlatformById(id) : undefined;

  switch (intent) {
    case "toggle-active": {
      const result = platform ? await togglePlatformActive(platform.id) : null;
      if (!result) return rowError(intent, id, "platforms.errors.status", 404);
      return redirectWithToast(BACK, {
        type: "success",
        key: result.isActive ? "admin-catalog:platforms.toast.activated" : "admin-catalog:platforms.toast.deactivated",
        values: { name: platform!.name },
      });
    }
    case "update": {
      const submission = parseWithZod(form, { schema: platformUpdateSchema });
      if (!platform) return rowError(intent, id, "platforms.errors.update", 404);
      if (submission.status !== "success")
        return data<RowActionData>({ intent, id, result: submission.reply() }, { status: 400 });
      const v = submission.value;
      const template = v.referral_url_template ?? null;
      try {
        await updatePlatform(platform.id, {
          name: v.name,
          slug: v.slug,
          code_pattern: v.code_pattern,
          description: v.description ?? "",
          hosts: normalizeHosts(v.hosts),
          referral_url_template: template,
          // Rules follow the template only when it changed: hand-written seed rules stay.
          ...(template !== platform.referral_url_template ? { url_rules: JSON.stringify(deriveUrlRules(template)) } : {}),
        });
      } catch (error) {
        if (error instanceof SlugTakenError) {
          return data<RowActionData>(
            { intent, id, result: submission.reply({ fieldErrors: { slug: ["platformForm.errors.slugTaken"] } }) },
            { status: 400 },
          );
        }
        throw error;
      }
      return redirectWithToast(BACK, { type: "success", key: "admin-catalog:platforms.toast.updated", values: { name: v.name } });
    }
    case "upload-logo": {
      const variant = logoVariantSchema.safeParse(form.get("variant"));
      if (!platform) return rowError(intent, id, "platforms.errors.logoUpload", 404);
      if (!variant.success) return rowError(intent, id, "platforms.errors.variant", 400, "variant");
      const which = { variant: variant.data };
      const file = form.get("file");
      if (!(file instanceof Blob) || file.size === 0)
        return rowError(intent, id, "platforms.errors.logoMissing", 400, "file", which);
      if (file.size > MAX_LOGO_BYTES) return rowError(intent, id, "platforms.errors.logoTooLarge", 413, "file", which);
      const bytes = new Uint8Array(await file.arrayBuffer());
      const kind = detectImageKind(bytes);
      if (!kind) return rowError(intent, id, "platforms.errors.logoType", 400, "file", which);
      const url = await storeLogo(platform.slug, variant.data, kind, bytes);
      const saved = await setPlatformLogo(platform.id, variant.data, url);
      if (!saved) {
        await removeStoredLogo(url);
        return rowError(intent, id, "platforms.errors.logoUpload", 404, "", which);
      }
      await removeStoredLogo(saved.previous);
      return redirectWithToast(BACK, {
        type: "success",
        key: "admin-catalog:platforms.toast.logoUploaded",
        values: { name: platform.name },
      });
    }
    case "remove-logo": {
      const variant = logoVariantSchema.safeParse(form.get("variant"));
      if (!platform) return rowError(intent, id, "platforms.errors.logoRemove", 404);
      if (!variant.success) return rowError(intent, id, "platforms.errors.variant", 400);
      const saved = await setPlatformLogo(platform.id, variant.data, null);
      if (!saved) return rowError(intent, id, "platforms.errors.logoRemove", 404);
      await removeStoredLogo(saved.previous);
      return redirectWithToast(BACK, {
        type: "success",
        key: "admin-catalog:platforms.toast.logoRemoved",
        values: { name: platform.name },
      });
    }
    case "delete": {
      const removed = platform ? await deletePlatform(platform.id) : null;
      if (!removed) return rowError(intent, id, "platforms.errors.delete", 404);
      await removeStoredLogo(removed.custom_logo_light_url);
      await removeStoredLogo(removed.custom_logo_dark_url);
      return redirectWithToast(BACK, {
        type: "success",
        key: "admin-catalog:platforms.toast.deleted",
        values: { name: platform!.name },
      });
    }
    default:
      return rowError(intent, id, "errors.unknownIntent", 400);
  }
}

export default function AdminPlatforms() {
  const { platforms, maxLogoKb } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as RowActionData | undefined;
  const { t } = useTranslation("admin-catalog");
  const orphanErrors =
    actionData && !platforms.some((p) => p.id === actionData.id)
      ? Object.values(actionData.result.error ?? {}).flatMap((e) => e ?? [])
      : [];

  return (
    <section className={stack} aria-labelledby="platforms-heading">
      <div className={row} style={{ justifyContent: "space-between" }}>
        <h2 id="platforms-heading">{t("platforms.title")}</h2>
        <Link to="/admin/platforms/new" className={`${button.primary} ${buttonSmall}`}>
          {t("platforms.create")}
        </Link>
      </div>
      <FormAlert errors={orphanErrors} />
      {platforms.length === 0 ? (
        <p className={muted}>{t("platforms.empty")}</p>
      ) : (
        <ul className={stack} style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {platforms.map((p) => {
            const err = (intent: string, name: string) => errorsOf(actionData, intent, p.id, name);
            const val = (name: string) => valueOf(actionData, "update", p.id, name);
            const updateErrors = ["name", "slug", "code_pattern", "description", "hosts", "referral_url_template", ""].some(
              (n) => err("update", n).length > 0,
            );
            const fieldProps = (name: string) => {
              const errors = err("update", name);
              return {
                id: `${name}-${p.id}`,
                name,
                className: input,
                "aria-invalid": errors.length > 0 || undefined,
                "aria-describedby": errors.length > 0 ? `${name}-${p.id}-error` : undefined,
              };
            };
            return (
              <li key={p.id} className={admin.tableWrap} style={{ padding: "1rem" }} data-testid={`platform-row-${p.slug}`}>
                <div className={stack} style={{ gap: "0.5rem" }}>
                  <div className={row} style={{ justifyContent: "space-between" }}>
                    <h3 style={{ margin: 0 }}>
                      <span aria-hidden="true">{p.emoji} </span>
                      {p.name} <span className={muted}>/{p.slug}</span>
                    </h3>
                    <span className={badge}>{p.isActive ? t("common.active") : t("common.inactive")}</span>
                  </div>
                  <p className={muted} style={{ margin: 0 }}>
                    {t("platforms.createdAt", { date: formatDate(p.createdAt) })} · {t("platforms.pattern")}{" "}
                    <code>{p.codePattern || "—"}</code>
                  </p>
                  <div className={admin.actions}>
                    <RowButton
                      intent="toggle-active"
                      id={p.id}
                      label={p.isActive ? t("platforms.deactivate") : t("platforms.activate")}
                      accessibleName={`${p.isActive ? t("platforms.deactivate") : t("platforms.activate")} ${p.name}`}
                    />
                    <Link to={`/${p.slug}`} className={`${button.ghost} ${buttonSmall}`}>
                      {t("platforms.view")}
                      <span className={visuallyHidden}> {p.name}</span>
                    </Link>
                    <RowButton
                      intent="delete"
                      id={p.id}
                      tone="danger"
                      label={t("common.delete")}
                      accessibleName={`${t("common.delete")} ${p.name}`}
                    />
                  </div>
                  <FormAlert errors={[...err("toggle-active", ""), ...err("delete", "")]} />
                  <details open={updateErrors}>
                    <summary>{t("common.edit")}</summary>
                    <Form method="post" className={admin.formGrid} style={{ marginTop: "0.5rem" }} preventScrollReset>
                      <input type="hidden" name="intent" value="update" />
                      <input type="hidden" name="id" value={p.id} />
                      <div className={field}>
                        <label htmlFor={`name-${p.id}`} className={label}>
                          {t("platformForm.name")}
                        </label>
                        <input {...fieldProps("name")} required defaultValue={val("name") ?? p.name} />
                        <FieldErrors id={`name-${p.id}-error`} errors={err("update", "name")} />
                      </div>
                      <div className={field}>
                        <label htmlFor={`slug-${p.id}`} className={label}>
                          {t("platformForm.slug")}
                        </label>
                        <input {...fieldProps("slug")} required defaultValue={val("slug") ?? p.slug} />
                        <FieldErrors id={`slug-${p.id}-error`} errors={err("update", "slug")} />
                      </div>
                      <div className={field}>
                        <label htmlFor={`code_pattern-${p.id}`} className={label}>
                          {t("platformForm.codePattern")}
                        </label>
                        <input {...fieldProps("code_pattern")} required defaultValue={val("code_pattern") ?? p.codePattern} />
                        <FieldErrors id={`code_pattern-${p.id}-error`} errors={err("update", "code_pattern")} />
                      </div>
                      <div className={field}>
                        <label htmlFor={`hosts-${p.id}`} className={label}>
                          {t("platformForm.hosts")}
                        </label>
                        <input {...fieldProps("hosts")} defaultValue={val("hosts") ?? p.hosts} />
                        <FieldErrors id={`hosts-${p.id}-error`} errors={err("update", "hosts")} />
                      </div>
                      <div className={field}>
                        <label htmlFor={`referral_url_template-${p.id}`} className={label}>
                          {t("platformForm.template")}
                        </label>
                        <input
                          {...fieldProps("referral_url_template")}
                          defaultValue={val("referral_url_template") ?? p.template}
                        />
                        <FieldErrors id={`referral_url_template-${p.id}-error`} errors={err("update", "referral_url_template")} />
                      </div>
                      <div className={field}>
                        <label htmlFor={`description-${p.id}`} className={label}>
                          {t("platformForm.description")}
                        </label>
                        <textarea {...fieldProps("description")} rows={2} defaultValue={val("description") ?? p.description} />
                        <FieldErrors id={`description-${p.id}-error`} errors={err("update", "description")} />
                      </div>
                      <FormAlert errors={err("update", "")} />
                      <div>
                        <button type="submit" className={`${button.primary} ${buttonSmall}`}>
                          {t("common.save")}
                        </button>
                      </div>
                    </Form>
                  </details>
                  <div className={admin.formGrid}>
                    {LOGO_VARIANTS.map((variant) => {
                      const current = p.logos[variant];
                      const uploadErrors = [
                        ...errorsOf(actionData, "upload-logo", p.id, "file"),
                        ...errorsOf(actionData, "upload-logo", p.id, "variant"),
                        ...errorsOf(actionData, "upload-logo", p.id, ""),
                      ];
                      const forThis = (actionData?.result.initialValue?.variant ?? "light") === variant;
                      const shown = forThis ? uploadErrors : [];
                      const inputId = `logo-${variant}-${p.id}`;
                      return (
                        <div key={variant} className={stack} style={{ gap: "0.5rem" }}>
                          <strong>{t(`platforms.logo.${variant}`)}</strong>
                          {current ? (
                            <img
                              src={current}
                              alt={t("platforms.logo.alt", { name: p.name, variant: t(`platforms.logo.${variant}`) })}
                              width={64}
                              height={64}
                              style={{ objectFit: "contain", background: variant === "dark" ? "#111" : "#fff", borderRadius: 8 }}
                            />
                          ) : (
                            <span className={muted}>{t("platforms.logo.none")}</span>
                          )}
                          <Form method="post" encType="multipart/form-data" className={admin.inlineForm} preventScrollReset>
                            <input type="hidden" name="intent" value="upload-logo" />
                            <input type="hidden" name="id" value={p.id} />
                            <input type="hidden" name="variant" value={variant} />
                            <label htmlFor={inputId} className={visuallyHidden}>
                              {t("platforms.logo.file", { variant: t(`platforms.logo.${variant}`), name: p.name })}
                            </label>
                            <input
                              id={inputId}
                              type="file"
                              name="file"
                              accept="image/png,image/jpeg,image/webp"
                              required
                              aria-invalid={shown.length > 0 || undefined}
                              aria-describedby={shown.length > 0 ? `${inputId}-error` : `${inputId}-hint`}
                            />
                            <button type="submit" className={`${button.secondary} ${buttonSmall}`}>
                              {t("platforms.logo.upload")}
                            </button>
                            <span id={`${inputId}-hint`} className={muted} style={{ fontSize: "0.85rem" }}>
                              {t("platforms.logo.hint", { kb: maxLogoKb })}
                            </span>
                            <FieldErrors id={`${inputId}-error`} errors={shown} />
                          </Form>
                          {current ? (
                            <RowButton
                              intent="remove-logo"
                              id={p.id}
                              extra={{ variant }}
                              tone="danger"
                              label={t("platforms.logo.remove")}
                              accessibleName={`${t("platforms.logo.remove")} ${t(`platforms.logo.${variant}`)} ${p.name}`}
                            />
                          ) : null}
                          {variant === "light" ? <FormAlert errors={errorsOf(actionData, "remove-logo", p.id, "")} /> : null}
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
    </section>
  );
}
