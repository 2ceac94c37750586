import { style } from "@vanilla-extract/css";
import { space, vars } from "~/styles/theme.css";

/** The trust pages' own layout bits (report, owner page, fairness, admin list). */
export const flush = style({ margin: 0 });
export const tight = style({ gap: space.sm });
export const facts = style({ margin: 0, gap: space.xs });
export const term = style({ fontWeight: 600 });
export const inlineTerm = style({ display: "inline", fontWeight: 600 });
export const inlineValue = style({ display: "inline", margin: 0 });
export const plainList = style({ listStyle: "none", padding: 0, margin: 0 });
export const measure = style({ margin: 0, maxWidth: "48rem" });
export const chart = style({ display: "block", minWidth: 0 });
export const chartFigure = style({ margin: 0, maxWidth: "28rem" });
export const chartCaption = style({ fontSize: "0.875rem", color: vars.color.textMuted, margin: `0 0 ${space.xs}` });
export const chartPlot = style({
  display: "grid",
  gridTemplateColumns: "auto minmax(0, 1fr)",
  gap: space.xs,
  alignItems: "stretch",
});
export const chartScale = style({
  display: "flex",
  flexDirection: "column",
  justifyContent: "space-between",
  alignItems: "flex-end",
  fontSize: "0.8125rem",
  lineHeight: 1,
  color: vars.color.textMuted,
  fontVariantNumeric: "tabular-nums",
});
export const caption = style({ textAlign: "left" });
/** A SHA-256 or a command line: long, unbroken; wraps anywhere rather than scroll sideways on a phone. */
export const hash = style({ overflowWrap: "anywhere", fontSize: "0.85em" });
export const command = style({ whiteSpace: "pre-wrap", overflowWrap: "anywhere", margin: 0 });
