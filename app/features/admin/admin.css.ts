import { style } from "@vanilla-extract/css";
import { radius, space, vars } from "~/styles/theme.css";

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
/** Admin lists: a table that scrolls sideways on a phone instead of breaking the layout. */
export const tableWrap = style({ overflowX: "auto", border: `1px solid ${vars.color.border}`, borderRadius: radius.md });
export const table = style({ width: "100%", borderCollapse: "collapse", fontSize: "0.95rem" });
export const cell = style({
  padding: `${space.sm} ${space.md}`,
  borderBottom: `1px solid ${vars.color.border}`,
  textAlign: "left",
  verticalAlign: "top",
});
export const actions = style({ display: "flex", flexWrap: "wrap", gap: space.xs, alignItems: "center" });
export const inlineForm = style({ display: "inline-flex", flexWrap: "wrap", gap: space.xs, alignItems: "center", margin: 0 });
export const formGrid = style({
  display: "grid",
  gap: space.md,
  gridTemplateColumns: "repeat(auto-fit, minmax(min(100%, 16rem), 1fr))",
});

/** The confirmation dialog (JS only; without JS a confirmation step or the plain form stands in). */
export const dialogOverlay = style({
  position: "fixed",
  inset: 0,
  zIndex: 60,
  display: "grid",
  placeItems: "center",
  padding: space.md,
  background: vars.color.overlay,
});
export const dialogModal = style({
  width: "100%",
  maxWidth: "28rem",
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: radius.lg,
  padding: space.lg,
  boxShadow: vars.shadow.card,
  outline: "none",
});
export const dialogBody = style({ outline: "none", display: "flex", flexDirection: "column", gap: space.md });
export const confirmQuestion = style({ margin: 0, fontWeight: 700 });
export const dialogTitle = style({ margin: 0, fontSize: "1.15rem" });
export const autoWidth = style({ width: "auto" });
export const caption = style({ textAlign: "left", padding: `${space.sm} ${space.md}` });
export const tightStack = style({ gap: space.sm });
export const daysInput = style({ width: "6rem" });
export const editForm = style({ gap: space.sm, marginTop: space.sm });
