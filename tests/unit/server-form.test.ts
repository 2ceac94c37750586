import { describe, expect, it } from "vitest";
import { serverForm } from "~/utils/server-form";

// The visitors' forms render the server's reply with Conform's ids and ARIA (decision 176): the
// messages sit next to their field and the input is kept, with JavaScript or without.
describe("serverForm", () => {
  it("gives Conform's ids, the constraint attributes and no error before a reply", () => {
    const form = serverForm("submit-code", undefined);
    expect(form.props).toEqual({ id: "submit-code", noValidate: true });
    expect(form.errors).toBeUndefined();
    const code = form.field("code", { required: true, maxLength: 20 }, "submit-code-code-hint");
    expect(code.id).toBe("submit-code-code");
    expect(code.errorId).toBe("submit-code-code-error");
    expect(code.props).toMatchObject({
      id: "submit-code-code",
      name: "code",
      form: "submit-code",
      required: true,
      maxLength: 20,
    });
    expect(code.props["aria-invalid"]).toBeUndefined();
    expect(code.props["aria-describedby"]).toBe("submit-code-code-hint");
  });

  it("shows a reply's messages, field by field and for the form, and keeps what was typed", () => {
    const form = serverForm("suggest-platform", {
      status: "error",
      initialValue: { name: "Nova", website_url: "ftp://x" },
      error: { "": ["errors.saveFailed"], website_url: ["errors.websiteInvalid"], name: null },
    });
    expect(form.errors).toEqual(["errors.saveFailed"]);
    const website = form.field("website_url");
    expect(website.errors).toEqual(["errors.websiteInvalid"]);
    expect(website.props).toMatchObject({
      defaultValue: "ftp://x",
      "aria-invalid": true,
      "aria-describedby": "suggest-platform-website_url-error",
    });
    const name = form.field("name");
    expect(name.errors).toBeUndefined();
    expect(name.props.defaultValue).toBe("Nova");
  });
});
