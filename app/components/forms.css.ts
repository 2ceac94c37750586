import { style } from "@vanilla-extract/css";
import { space, vars } from "~/styles/theme.css";

export const checkboxRow = style({ display: "flex", alignItems: "center", gap: space.sm, minHeight: "2.75rem" });
export const checkbox = style({ width: "1.25rem", height: "1.25rem", accentColor: vars.color.primary });
