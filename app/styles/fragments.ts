import { radius, space, vars } from "./theme.css";

/**
 * Style fragments that several features' stylesheets spread into their own `style({...})`: one
 * definition of a boxed item, a pill, a dialog surface. Only .css.ts files import this.
 */
export const boxedItem = {
  display: "flex",
  flexDirection: "column",
  gap: space.sm,
  padding: space.md,
  borderRadius: radius.md,
  background: vars.color.surface,
} as const;

export const pill = {
  display: "inline-block",
  padding: `0 ${space.sm}`,
  borderRadius: radius.full,
  fontSize: "0.8rem",
  fontWeight: 700,
} as const;

export const dialogSurface = {
  width: "100%",
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: radius.lg,
  padding: space.lg,
  boxShadow: vars.shadow.card,
  outline: "none",
} as const;

/** A dashed, monospace box for a code or a field that holds one. */
export const codeFrame = {
  padding: `${space.md} ${space.sm}`,
  borderRadius: radius.md,
  border: `2px dashed ${vars.color.border}`,
  background: vars.color.surfaceAlt,
} as const;
