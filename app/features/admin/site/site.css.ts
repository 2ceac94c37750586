import { style } from "@vanilla-extract/css";
import { boxedItem } from "~/styles/fragments";
import { radius, space, vars } from "~/styles/theme.css";

export const panel = style({ display: "flex", flexDirection: "column", gap: space.lg });
export const sectionHeading = style({ margin: 0, fontSize: "1.25rem" });
export const list = style({ listStyle: "none", margin: 0, padding: 0, display: "flex", flexDirection: "column", gap: space.sm });
export const item = style({ ...boxedItem, border: `1px solid ${vars.color.border}` });
export const itemHead = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  justifyContent: "space-between",
  gap: space.sm,
});
export const itemTitle = style({ margin: 0, fontSize: "1.05rem", overflowWrap: "anywhere" });
export const summary = style({ cursor: "pointer", fontWeight: 600, color: vars.color.link, width: "fit-content" });
export const wrapText = style({ overflowWrap: "anywhere" });
export const smallInput = style({ maxWidth: "12rem" });
export const numberInput = style({ maxWidth: "9rem" });

/** The request log: its own scroll region, 600 px at most so the page stays short. */
export const scrollRegion = style({
  maxHeight: 600,
  overflowY: "auto",
  border: `1px solid ${vars.color.border}`,
  borderRadius: radius.md,
  selectors: { "&:focus-visible": { outline: `3px solid ${vars.color.primary}`, outlineOffset: 2 } },
});
export const stickyHead = style({ position: "sticky", top: 0, background: vars.color.surfaceAlt, zIndex: 1 });

export const chart = style({ width: "100%", height: "auto", maxHeight: "14rem", display: "block" });
export const chartBar = style({ fill: vars.color.primary });
export const chartAxis = style({ stroke: vars.color.border, strokeWidth: 1 });
export const chartLabel = style({ fill: vars.color.textMuted, fontSize: 10 });
export const settingForm = style({
  display: "grid",
  gap: space.sm,
  padding: space.md,
  border: `1px solid ${vars.color.border}`,
  borderRadius: radius.md,
  background: vars.color.surface,
});
export const flush = style({ margin: 0 });
/** A group of fields (the four descriptions) without the browser's frame. */
export const fieldset = style({ border: 0, margin: 0, padding: 0, minWidth: 0 });
