import { globalStyle, style, styleVariants } from "@vanilla-extract/css";
import { breakpoints, radius, space, vars } from "~/styles/theme.css";

export const shell = style({ display: "flex", flexDirection: "column", gap: space.lg });
export const topBar = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  justifyContent: "space-between",
  gap: space.md,
});
export const stats = style({
  display: "grid",
  gap: space.md,
  gridTemplateColumns: "repeat(auto-fit, minmax(min(100%, 11rem), 1fr))",
});
export const statCard = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: radius.md,
  padding: space.md,
});
export const statValue = style({ fontSize: "1.75rem", fontWeight: 800, margin: 0 });
export const statLabel = style({ color: vars.color.textMuted, margin: 0 });
export const tabs = style({
  display: "flex",
  flexWrap: "wrap",
  gap: space.xs,
  listStyle: "none",
  margin: 0,
  padding: 0,
  borderBottom: `1px solid ${vars.color.border}`,
});
export const tab = style({
  display: "inline-block",
  padding: `${space.sm} ${space.md}`,
  color: vars.color.text,
  textDecoration: "none",
  fontWeight: 600,
  borderBottom: "3px solid transparent",
  selectors: { '&[aria-current="page"]': { borderBottomColor: vars.color.primary, color: vars.color.link } },
});
/**
 * Admin lists: a table on wide screens; below 768 px each row becomes a card whose cells are
 * labelled by their column (`data-label`), so nothing scrolls sideways on a phone. `position:
 * relative` keeps visually hidden labels inside the box instead of widening the page.
 */
export const tableWrap = style({
  position: "relative",
  overflowX: "auto",
  border: `1px solid ${vars.color.border}`,
  borderRadius: radius.md,
  "@media": { [breakpoints.drawer]: { border: "none" } },
});
export const table = style({ width: "100%", borderCollapse: "collapse", fontSize: "0.95rem" });
export const cell = style({
  padding: `${space.sm} ${space.md}`,
  borderBottom: `1px solid ${vars.color.border}`,
  textAlign: "left",
  verticalAlign: "top",
  overflowWrap: "anywhere",
  "@media": {
    [breakpoints.drawer]: { display: "block", borderBottom: "none", padding: `${space.xs} ${space.md}` },
  },
  selectors: {
    "&[data-label]::before": {
      "@media": {
        [breakpoints.drawer]: {
          content: "attr(data-label)",
          display: "block",
          fontSize: "0.8rem",
          fontWeight: 700,
          color: vars.color.textMuted,
          textTransform: "uppercase",
          letterSpacing: "0.03em",
        },
      },
    },
  },
});
globalStyle(`${table} > thead`, {
  "@media": {
    [breakpoints.drawer]: {
      position: "absolute",
      width: 1,
      height: 1,
      overflow: "hidden",
      clipPath: "inset(50%)",
      whiteSpace: "nowrap",
    },
  },
});
globalStyle(`${table} > tbody, ${table} > caption`, { "@media": { [breakpoints.drawer]: { display: "block" } } });
globalStyle(`${table} > tbody > tr`, {
  "@media": {
    [breakpoints.drawer]: {
      display: "block",
      margin: `0 0 ${space.md}`,
      padding: `${space.sm} 0`,
      border: `1px solid ${vars.color.border}`,
      borderRadius: radius.md,
      background: vars.color.surface,
    },
  },
});
export const actions = style({ display: "flex", flexWrap: "wrap", gap: space.xs, alignItems: "center" });
export { inlineForm } from "~/components/confirm.css";
export const formGrid = style({
  display: "grid",
  gap: space.md,
  gridTemplateColumns: "repeat(auto-fit, minmax(min(100%, 16rem), 1fr))",
});

export const caption = style({ textAlign: "left", padding: `${space.sm} ${space.md}` });
export const tightStack = style({ gap: space.sm });
export const daysInput = style({ width: "6rem" });
export const editForm = style({ gap: space.sm, marginTop: space.sm });

/** A logo shown on the background it is made for. */
const logoPreviewBase = style({ objectFit: "contain", borderRadius: radius.md });
export const logoPreview = styleVariants({
  light: [logoPreviewBase, { background: "#fff" }],
  dark: [logoPreviewBase, { background: "#111" }],
});

/** A date cell: one line (a date broken mid-number reads as two numbers). */
export const dateCell = style({ whiteSpace: "nowrap", fontVariantNumeric: "tabular-nums" });

/** The logo upload: the file input drawn as the other fields, its button as a secondary button. */
export const fileInput = style({
  maxWidth: "100%",
  padding: space.xs,
  border: `1px dashed ${vars.color.border}`,
  borderRadius: radius.md,
  background: vars.color.surface,
  color: vars.color.textMuted,
  font: "inherit",
  selectors: {
    "&::file-selector-button": {
      marginRight: space.sm,
      minHeight: "2.25rem",
      padding: `0 ${space.md}`,
      border: `1px solid ${vars.color.border}`,
      borderRadius: radius.md,
      background: vars.color.surfaceAlt,
      color: vars.color.text,
      font: "inherit",
      fontWeight: 600,
      cursor: "pointer",
    },
  },
});
