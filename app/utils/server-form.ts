import type { SubmissionResult } from "@conform-to/react";

/** The constraint attributes a field mirrors from its schema (the browser's hints only: the form is `noValidate`). */
interface Constraint {
  required?: boolean;
  minLength?: number;
  maxLength?: number;
}

/**
 * A public form validated on the server only (decision 176): the action still checks it with its
 * zod schema and answers `submission.reply()`; the page renders that reply with the ids, kept values
 * and ARIA that Conform's `useForm` gives (`<form id>-<field>`, `-error` for messages), without
 * shipping Conform and zod to the browser. JS on or off, a message comes from the server, in the
 * visitor's language, next to its field. Model: `app/routes/submit.tsx`.
 */
export function serverForm(id: string, result: SubmissionResult<string[]> | undefined | null) {
  const messages = (name: string) => {
    const list = result?.error?.[name];
    return list && list.length > 0 ? list : undefined;
  };
  const initial = result?.initialValue as Record<string, unknown> | null | undefined;
  return {
    props: { id, noValidate: true },
    errorId: `${id}-error`,
    errors: messages(""),
    field(name: string, constraint: Constraint = {}, describedBy?: string) {
      const fieldId = `${id}-${name}`;
      const errorId = `${fieldId}-error`;
      const errors = messages(name);
      const kept = initial?.[name];
      return {
        id: fieldId,
        errorId,
        errors,
        props: {
          id: fieldId,
          name,
          form: id,
          required: constraint.required || undefined,
          minLength: constraint.minLength,
          maxLength: constraint.maxLength,
          defaultValue: typeof kept === "string" ? kept : undefined,
          "aria-invalid": errors ? true : undefined,
          "aria-describedby": errors ? `${errorId} ${describedBy ?? ""}`.trim() : describedBy,
        },
      };
    },
  };
}
