import { style, styleVariants } from "@vanilla-extract/css";
import { pill } from "~/styles/fragments";
import { radius, space, vars } from "~/styles/theme.css";

export const stale = style({ opacity: 0.55 });
export const flush = style({ margin: 0 });
export const jsonHint = style({ fontSize: "0.9rem", overflowWrap: "anywhere" });
export const url = style({
  overflowWrap: "anywhere",
  fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace",
  fontSize: "0.9rem",
});

const box = {
  padding: space.md,
  borderRadius: radius.md,
  border: `1px solid ${vars.color.border}`,
  color: vars.color.text,
} as const;

export const problem = style({ ...box, background: vars.color.dangerBg, marginTop: space.lg });
export const overall = style({ ...box, display: "flex", flexDirection: "column", gap: space.xs, marginBottom: space.md });

/** Tone per status: the colour is a cue only, the status is also written out. */
export const tone = styleVariants({
  success: { background: vars.color.successBg },
  warning: { background: vars.color.warningBg },
  error: { background: vars.color.dangerBg },
  skipped: { background: vars.color.surfaceAlt },
});

export const checkList = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "flex",
  flexDirection: "column",
  gap: space.sm,
});
export const check = style({ ...box, display: "flex", flexDirection: "column", gap: space.xs });
export const checkHead = style({ display: "flex", alignItems: "center", gap: space.sm, flexWrap: "wrap" });
export const badge = style({
  ...pill,
  border: `1px solid ${vars.color.text}`,
  color: vars.color.text,
});
export const examples = style({ margin: `${space.xs} 0 0`, paddingLeft: space.lg });
