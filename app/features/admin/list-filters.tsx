import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { buttonClass } from "~/styles/recipes";
import { Field } from "~/components/forms";
import { alignEnd, input, row } from "~/styles/ui.css";

/**
 * The filters above an admin list: a plain GET form (works without JavaScript; the URL keeps the
 * filters, so a filtered page can be bookmarked and paged), and a link back to the whole list.
 * Applying filters starts again at the first page (the form carries no cursor).
 */
export function ListFilters({
  resetTo,
  label,
  submitLabel,
  children,
}: {
  resetTo: string;
  /** What the form is called for assistive technology ("Filters" unless the list says more). */
  label?: string;
  submitLabel?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation("lists");
  return (
    <Form method="get" className={row} aria-label={label ?? t("filters.label")} data-testid="list-filters">
      {children}
      <button type="submit" className={`${buttonClass({ tone: "secondary", size: "small" })} ${alignEnd}`}>
        {submitLabel ?? t("filters.apply")}
      </button>
      <Link to={resetTo} className={`${buttonClass({ tone: "ghost", size: "small" })} ${alignEnd}`}>
        {t("filters.reset")}
      </Link>
    </Form>
  );
}

export function SelectFilter({
  name,
  label,
  value,
  options,
  all = true,
}: {
  name: string;
  label: string;
  value: string | null;
  options: ReadonlyArray<{ value: string; label: string }>;
  /** Offer "All" (an empty value) first; a string names it ("All platforms"). */
  all?: boolean | string;
}) {
  const { t } = useTranslation("lists");
  return (
    <Field id={`filter-${name}`} label={label}>
      {(control) => (
        <select {...control} name={name} defaultValue={value ?? ""} key={value ?? ""} className={input}>
          {all ? <option value="">{typeof all === "string" ? all : t("filters.all")}</option> : null}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function TextFilter({
  name,
  label,
  value,
  type = "text",
}: {
  name: string;
  label: string;
  value: string | null;
  type?: "text" | "date" | "search";
}) {
  return (
    <Field id={`filter-${name}`} label={label}>
      {(control) => (
        <input
          {...control}
          name={name}
          type={type}
          defaultValue={value ?? ""}
          key={value ?? ""}
          maxLength={100}
          className={input}
        />
      )}
    </Field>
  );
}
