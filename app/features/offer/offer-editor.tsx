import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as admin from "~/features/admin/admin.css";
import { errorsOf, FieldError, FormAlert, formIdOf, valueOf, type AdminFormReply } from "~/features/admin/forms";
import { buttonClass } from "~/styles/recipes";
import { bareFieldset, field, input, label, muted, smallText, spaceAbove, stack } from "~/styles/ui.css";
import { OFFER_LANGUAGE_SUFFIXES, OFFER_TEXTS, type OfferRow } from "./offer";

const LANGUAGE_OF_SUFFIX = { "": "fr", _en: "en", _de: "de", _es: "es" } as const;

/**
 * The admin's offer form for one platform (platforms tab): every text in the four languages and the
 * day it was checked. A plain form (`intent=update-offer`); a rejected one opens again with the
 * admin's input and the message next to its field.
 */
export function OfferEditor({
  platform,
  offer,
  reply,
}: {
  platform: { id: number; name: string };
  offer: OfferRow | null;
  reply: AdminFormReply | undefined;
}) {
  const { t } = useTranslation(["offer", "admin-catalog"]);
  const formId = formIdOf("update-offer", platform.id);
  const errors = (name: string) => errorsOf(reply, formId, name);
  const rejected = reply?.formId === formId;
  const value = (name: keyof OfferRow) => (rejected ? (valueOf(reply, formId, name) ?? "") : (offer?.[name] ?? ""));
  const fieldProps = (name: keyof OfferRow) => {
    const failing = errors(name).length > 0;
    return {
      id: `${name}-${platform.id}`,
      name,
      className: input,
      defaultValue: value(name),
      "aria-invalid": failing || undefined,
      "aria-describedby": failing ? `${name}-${platform.id}-error` : undefined,
    };
  };
  return (
    <details open={rejected} data-testid={`offer-editor-${platform.id}`}>
      <summary>{t("offer:admin.summary")}</summary>
      <Form method="post" className={`${stack} ${spaceAbove}`} preventScrollReset>
        <input type="hidden" name="intent" value="update-offer" />
        <input type="hidden" name="id" value={platform.id} />
        <p className={`${muted} ${smallText}`}>{t("offer:admin.intro")}</p>
        {OFFER_LANGUAGE_SUFFIXES.map((suffix) => (
          <fieldset key={suffix} className={`${bareFieldset} ${admin.formGrid}`}>
            <legend className={label}>{t(`offer:admin.language.${LANGUAGE_OF_SUFFIX[suffix]}`)}</legend>
            {OFFER_TEXTS.map((text) => {
              const name = `${text}${suffix}` as keyof OfferRow;
              return (
                <div key={name} className={field}>
                  <label htmlFor={`${name}-${platform.id}`} className={label}>
                    {t(`offer:admin.fields.${text}`)}
                  </label>
                  {text === "offer_steps" || text === "offer_conditions" ? (
                    <textarea {...fieldProps(name)} rows={text === "offer_steps" ? 4 : 2} />
                  ) : (
                    <input {...fieldProps(name)} />
                  )}
                  <FieldError ns="offer" id={`${name}-${platform.id}-error`} errors={errors(name)} />
                </div>
              );
            })}
          </fieldset>
        ))}
        <div className={field}>
          <label htmlFor={`offer_checked_on-${platform.id}`} className={label}>
            {t("offer:admin.fields.offer_checked_on")}
          </label>
          <input {...fieldProps("offer_checked_on")} type="date" />
          <FieldError ns="offer" id={`offer_checked_on-${platform.id}-error`} errors={errors("offer_checked_on")} />
        </div>
        <FormAlert errors={errors("")} ns="offer" />
        <div>
          <button
            type="submit"
            className={buttonClass({ tone: "primary", size: "small" })}
            data-testid={`save-offer-${platform.id}`}
          >
            {t("offer:admin.save", { name: platform.name })}
          </button>
        </div>
      </Form>
    </details>
  );
}
