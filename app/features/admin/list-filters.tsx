import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { buttonClass } from "~/styles/recipes";
import { alignEnd, field, input, label as labelClass, row } from "~/styles/ui.css";

/**
 * The filters above an admin list: a plain GET form (works without JavaScript; the URL keeps the
 * filters, so a filtered page can be bookmarked and paged), and a link back to the whole list.
 * Applying filters starts again at the first page (the form carries no cursor).
 */
export function ListFilters({ resetTo, submitLabel, children }: { resetTo: string; submitLabel?: string; children: ReactNode }) {
  const { t } = useTranslation("lists");
  return (
    <Form method="get" className={row} aria-label={t("filters.label")} data-testid="list-filters">
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
  /** Offer "All" (an empty value) first. */
  all?: boolean;
}) {
  const { t } = useTranslation("lists");
  const id = `filter-${name}`;
  return (
    <div className={field}>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select id={id} name={name} defaultValue={value ?? ""} key={value ?? ""} className={input}>
        {all ? <option value="">{t("filters.all")}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
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
  const id = `filter-${name}`;
  return (
    <div className={field}>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input id={id} name={name} type={type} defaultValue={value ?? ""} key={value ?? ""} maxLength={100} className={input} />
    </div>
  );
}
