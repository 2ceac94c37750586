import { style } from "@vanilla-extract/css";
import { radius, space, vars } from "~/styles/theme.css";

export const overlay = style({
  position: "fixed",
  inset: 0,
  zIndex: 50,
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  padding: space.md,
  background: vars.color.overlay,
});
export const modal = style({
  width: "100%",
  maxWidth: "28rem",
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: radius.lg,
  padding: space.lg,
  boxShadow: vars.shadow.card,
});
export const dialog = style({ outline: "none", display: "flex", flexDirection: "column", gap: space.md });
