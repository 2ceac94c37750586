import { style } from "@vanilla-extract/css";
import { dialogSurface } from "~/styles/fragments";
import { radius, space, vars } from "~/styles/theme.css";

/** Idle: a still-looking sky behind the first screen of the home page, under the content. */
export const background = style({
  position: "absolute",
  top: 0,
  left: 0,
  width: "100%",
  height: "100vh",
  zIndex: -1,
  pointerEvents: "none",
  overflow: "hidden",
});

/** Any other phase: the game covers the page. */
export const overlay = style({
  position: "fixed",
  inset: 0,
  zIndex: 50,
  background: vars.color.bg,
  touchAction: "none",
  userSelect: "none",
  WebkitUserSelect: "none",
});

export const canvas = style({
  display: "block",
  width: "100%",
  height: "100%",
  color: vars.color.textMuted,
  opacity: 0.55,
  vars: { "--orb": "#f472b6", "--orb-glow": "#a78bfa" },
  selectors: { [`${overlay} &`]: { opacity: 1 } },
});

export const hud = style({
  position: "absolute",
  top: space.md,
  left: space.md,
  right: space.md,
  display: "flex",
  alignItems: "center",
  gap: space.md,
  fontWeight: 700,
  fontSize: "1.1rem",
  color: vars.color.text,
  pointerEvents: "none",
});

export const hudQuit = style({ marginLeft: "auto", pointerEvents: "auto" });

export const countdown = style({
  position: "absolute",
  inset: 0,
  display: "grid",
  placeItems: "center",
  fontSize: "5rem",
  fontWeight: 800,
  color: vars.color.text,
  pointerEvents: "none",
});

export const hint = style({
  position: "fixed",
  left: "50%",
  bottom: space.lg,
  transform: "translateX(-50%)",
  zIndex: 30,
  maxWidth: "calc(100vw - 2rem)",
  padding: `${space.sm} ${space.md}`,
  borderRadius: radius.full,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  color: vars.color.text,
  boxShadow: vars.shadow.card,
  pointerEvents: "none",
});

export const dialogOverlay = style({
  position: "fixed",
  inset: 0,
  zIndex: 60,
  display: "grid",
  placeItems: "center",
  padding: space.md,
  background: vars.color.overlay,
  overflowY: "auto",
});

export const dialogModal = style({ ...dialogSurface, maxWidth: "30rem" });

export const dialogBody = style({ outline: "none", display: "flex", flexDirection: "column", gap: space.md });

export const board = style({ width: "100%", borderCollapse: "collapse", fontSize: "0.95rem" });
export const boardCell = style({
  padding: `${space.xs} ${space.sm}`,
  borderBottom: `1px solid ${vars.color.border}`,
  textAlign: "left",
  overflowWrap: "anywhere",
});
export const boardScore = style([boardCell, { textAlign: "right", fontVariantNumeric: "tabular-nums" }]);

export const dialogTitle = style({ margin: 0, fontSize: "1.35rem" });
export const finalScore = style({ margin: 0, fontSize: "1.15rem", fontWeight: 700 });
export const pseudoForm = style({ alignItems: "flex-end" });
export const pseudoField = style({ flex: "1 1 12rem", display: "flex", flexDirection: "column", gap: space.xs });
export const boardTitle = style({ margin: `0 0 ${space.sm}`, fontSize: "1.05rem" });
export const boardCaption = style({ textAlign: "left" });
