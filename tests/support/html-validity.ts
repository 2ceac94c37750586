import { HtmlValidate, StaticConfigLoader, type Message } from "html-validate";

/**
 * html-validate's recommended and document presets, less the rules about how React writes markup
 * (it is valid HTML either way): attribute case (`charSet`, `hrefLang`), `<meta/>`, `selected=""`,
 * the ids of `useId` (`:R1:`, valid in HTML, only not CSS-friendly). Also off: inline `style`
 * (per-row dynamic values, such as a platform's gradient, are the one allowed use: docs/conventions.md)
 * and SRI, which only matters for other origins' files (every script and stylesheet is our own).
 */
const validator = new HtmlValidate(
  new StaticConfigLoader({
    extends: ["html-validate:recommended", "html-validate:document"],
    rules: {
      "attr-case": "off",
      "void-style": "off",
      "attribute-boolean-style": "off",
      "valid-id": ["error", { relaxed: true }],
      "no-inline-style": "off",
      "require-sri": "off",
    },
  }),
);

/** Every error html-validate finds in a page, as `rule: message (selector)`. */
export async function htmlErrors(html: string, label: string): Promise<string[]> {
  const report = await validator.validateString(html, label);
  return report.results.flatMap((result) =>
    result.messages
      .filter((m: Message) => m.severity === 2)
      .map((m: Message) => `${m.ruleId}: ${m.message} (${m.selector ?? `line ${m.line}`})`),
  );
}
