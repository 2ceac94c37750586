import { style } from "@vanilla-extract/css";
import { space, vars } from "~/styles/theme.css";

export const offer = style({
  margin: 0,
  padding: `${space.xs} ${space.md}`,
  textAlign: "center",
  background: vars.color.surfaceAlt,
  borderBottom: `1px solid ${vars.color.border}`,
});
