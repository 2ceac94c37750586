import { style } from "@vanilla-extract/css";
import { radius, space, vars } from "~/styles/theme.css";

/** Sticks to the bottom of the screen while scrolling, and never hides the footer at the end. */
export const banner = style({
  position: "sticky",
  bottom: 0,
  zIndex: 20,
  margin: `0 auto ${space.sm}`,
  maxWidth: "48rem",
  padding: space.md,
  borderRadius: radius.md,
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  boxShadow: "0 -4px 24px rgba(0, 0, 0, 0.25)",
});
export const title = style({ margin: 0, fontSize: "1.1rem" });
export const text = style({ margin: `${space.xs} 0 ${space.sm}` });
export const actions = style({ display: "flex", flexWrap: "wrap", gap: space.sm });
export const manage = style({ display: "flex", justifyContent: "center", padding: `0 0 ${space.md}` });
export const adSlot = style({ maxWidth: "72rem", margin: `${space.md} auto`, padding: `0 ${space.md}` });
export const adUnit = style({ display: "block" });
export const hiddenFrame = style({ display: "none", visibility: "hidden" });
