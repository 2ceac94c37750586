import { badge, badgeTone, button, buttonSmall, card, cardTone } from "./ui.css";

/**
 * Variant recipes: one call names every variant of a button, card or badge, so components never
 * glue class names or write inline styles for them. The classes are vanilla-extract's
 * (ui.css.ts); this file only picks them. Inline `style=` is for per-row dynamic values only
 * (a platform's gradient, a bar's height), through assignInlineVars where a theme variable exists.
 */
export type ButtonTone = keyof typeof button;
export function buttonClass({ tone = "primary", size = "normal" }: { tone?: ButtonTone; size?: "normal" | "small" } = {}) {
  return size === "small" ? `${button[tone]} ${buttonSmall}` : button[tone];
}

export type CardTone = keyof typeof cardTone;
export function cardClass({ tone = "plain" }: { tone?: CardTone } = {}) {
  return `${card} ${cardTone[tone]}`;
}

export type BadgeTone = keyof typeof badgeTone;
export function badgeClass({ tone = "neutral" }: { tone?: BadgeTone } = {}) {
  return `${badge} ${badgeTone[tone]}`;
}
