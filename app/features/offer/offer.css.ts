import { createVar, globalStyle, style } from "@vanilla-extract/css";
import { space, vars } from "~/styles/theme.css";

/** The offer, claim guide, failure reasons and tallies. */
export const flush = style({ margin: 0 });
export const facts = style({ margin: 0, display: "flex", flexDirection: "column", gap: space.xs });
export const fact = style({ display: "flex", flexWrap: "wrap", gap: space.xs });
export const term = style({ fontWeight: 600 });
export const steps = style({ margin: `${space.xs} 0 0`, paddingLeft: "1.5rem" });
export const tally = style({ display: "flex", flexWrap: "wrap", gap: `0 ${space.md}`, listStyle: "none", padding: 0, margin: 0 });
export const reasons = style({ display: "flex", flexWrap: "wrap", gap: space.sm, margin: 0 });
export const hint = style({ margin: 0, fontSize: "0.9rem", color: vars.color.textMuted });
export const spaced = style({ marginTop: space.lg });
export const plainList = style({ listStyle: "none", padding: 0, margin: 0 });

/**
 * The offer's lead ("what you get"), the first thing a card, the hero and a draw result say: a pill
 * in the success colours of the theme on a card, white on a platform's gradient.
 */
const leadBg = createVar();
export const lead = style({
  // The containing block of its visually hidden label: inside a scrolled list (the carousel), a label
  // placed by a box outside it would widen the page.
  position: "relative",
  display: "inline-flex",
  alignItems: "center",
  alignSelf: "flex-start",
  gap: space.xs,
  margin: 0,
  padding: `${space.xs} ${space.sm}`,
  borderRadius: "999px",
  vars: { [leadBg]: vars.color.successBg },
  background: leadBg,
  color: vars.color.success,
  fontWeight: 700,
  lineHeight: 1.3,
  overflowWrap: "anywhere",
});
export const leadOnGradient = style({
  vars: { [leadBg]: "#ffffff" },
  marginTop: space.sm,
  color: "#14532d",
  textShadow: "none",
});
/*
 * The gift before the text, drawn with gradients (no image: an SVG, a data URL too, is a document the
 * browser builds during the first style pass): a lid, a box, and a ribbon cut in the pill's colour.
 */
globalStyle(`${lead}::before`, {
  content: '""',
  flex: "none",
  width: "0.9em",
  height: "0.9em",
  background: [
    `linear-gradient(${leadBg}, ${leadBg}) center / 18% 100% no-repeat`,
    "linear-gradient(currentColor, currentColor) 0 15% / 100% 30% no-repeat",
    "linear-gradient(currentColor, currentColor) 50% 100% / 80% 55% no-repeat",
  ].join(", "),
});

/** /platforms' open-data line: apart from the list above it, not glued to it (issue 59). */
export const openData = style({ marginTop: space.lg });
