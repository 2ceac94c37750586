import { style } from "@vanilla-extract/css";
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
