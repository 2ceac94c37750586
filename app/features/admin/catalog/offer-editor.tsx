import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as admin from "../admin.css";
import { Field, SubmitButton, type FieldControl } from "~/components/forms";
import { errorsOf, FormAlert, formIdOf, useAdminMessage, valueOf, type AdminFormReply } from "../forms";
import { bareFieldset, input, label, muted, smallText, spaceAbove, stack } from "~/styles/ui.css";
import { OFFER_LANGUAGE_SUFFIXES, OFFER_TEXTS, type OfferRow } from "~/features/offer/offer";

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
  // What the admin typed when the save was refused; the stored text for any field the reply lacks.
  const value = (name: keyof OfferRow) => (rejected ? valueOf(reply, formId, name) : undefined) ?? offer?.[name] ?? "";
  const message = useAdminMessage("offer");
  const fieldProps = (name: keyof OfferRow) => ({ name, className: input, defaultValue: value(name) });
  const offerField = (name: keyof OfferRow, label: string, control: (control: FieldControl) => React.ReactNode) => (
    <Field key={name} id={`${name}-${platform.id}`} label={label} errors={errors(name)} translate={message}>
      {control}
    </Field>
  );
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
              return offerField(name, t(`offer:admin.fields.${text}`), (control) =>
                text === "offer_steps" || text === "offer_conditions" ? (
                  <textarea {...control} {...fieldProps(name)} rows={text === "offer_steps" ? 4 : 2} />
                ) : (
                  <input {...control} {...fieldProps(name)} />
                ),
              );
            })}
          </fieldset>
        ))}
        {offerField("offer_checked_on", t("offer:admin.fields.offer_checked_on"), (control) => (
          <input {...control} {...fieldProps("offer_checked_on")} type="date" />
        ))}
        <FormAlert errors={errors("")} ns="offer" />
        <div>
          <SubmitButton
            intent="update-offer"
            id={platform.id}
            tone="primary"
            size="small"
            data-testid={`save-offer-${platform.id}`}
          >
            {t("offer:admin.save", { name: platform.name })}
          </SubmitButton>
        </div>
      </Form>
    </details>
  );
}
