import { globalStyle, keyframes, style } from "@vanilla-extract/css";
import { boxedItem } from "~/styles/fragments";
import { radius, space, vars } from "~/styles/theme.css";

export const layout = style({
  display: "grid",
  gap: space.lg,
  gridTemplateColumns: "minmax(0, 1fr)",
  "@media": { "screen and (min-width: 960px)": { gridTemplateColumns: "16rem minmax(0, 1fr)" } },
});
export const sidebar = style({ display: "flex", flexDirection: "column", gap: space.sm, minWidth: 0 });
export const conversationList = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "flex",
  flexDirection: "column",
  gap: space.xs,
  maxHeight: "600px",
  overflowY: "auto",
});
export const conversationItem = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: space.xs,
  padding: space.xs,
  borderRadius: radius.sm,
  selectors: { '&:has(a[aria-current="page"])': { background: vars.color.surfaceAlt } },
});
export const conversationLink = style({
  display: "block",
  flex: 1,
  minWidth: 0,
  overflow: "hidden",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap",
  color: vars.color.link,
});
export const main = style({ display: "flex", flexDirection: "column", gap: space.md, minWidth: 0 });
/** The chat panel: 600 px high, scrolling inside. */
export const panel = style({
  height: "600px",
  overflowY: "auto",
  display: "flex",
  flexDirection: "column",
  gap: space.md,
  padding: space.md,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: radius.md,
  // Model answers and tool inputs hold long words, URLs and JSON: they wrap inside the panel.
  overflowWrap: "anywhere",
});
globalStyle(`${panel} pre`, { whiteSpace: "pre-wrap", overflowWrap: "anywhere", maxWidth: "100%" });
const bubbleBase = style({
  maxWidth: "85%",
  padding: `${space.sm} ${space.md}`,
  borderRadius: radius.md,
  overflowWrap: "anywhere",
});
export const userBubble = style([
  bubbleBase,
  { alignSelf: "flex-end", background: vars.color.primary, color: vars.color.onPrimary, whiteSpace: "pre-wrap" },
]);
export const assistantBubble = style([
  bubbleBase,
  {
    alignSelf: "flex-start",
    background: vars.color.surfaceAlt,
    color: vars.color.text,
    display: "flex",
    flexDirection: "column",
    gap: space.sm,
  },
]);
export const errorBubble = style([
  bubbleBase,
  { alignSelf: "flex-start", background: vars.color.dangerBg, color: vars.color.text, border: `1px solid ${vars.color.danger}` },
]);
export const speaker = style({ fontSize: "0.8rem", fontWeight: 700, color: "inherit", margin: 0 });
export const markdown = style({});
globalStyle(`${markdown} > :first-child`, { marginTop: 0 });
globalStyle(`${markdown} > :last-child`, { marginBottom: 0 });
globalStyle(`${markdown} pre`, { overflowX: "auto", padding: space.sm, background: vars.color.bg, borderRadius: radius.sm });
globalStyle(`${markdown} table`, { borderCollapse: "collapse", fontSize: "0.9rem" });
globalStyle(`${markdown} th, ${markdown} td`, { border: `1px solid ${vars.color.border}`, padding: `${space.xs} ${space.sm}` });
globalStyle(`${markdown} a`, { color: vars.color.link });
export const toolCall = style({
  fontSize: "0.9rem",
  border: `1px solid ${vars.color.border}`,
  borderRadius: radius.sm,
  padding: `${space.xs} ${space.sm}`,
  background: vars.color.surface,
});
globalStyle(`${toolCall} pre`, { margin: 0, overflowX: "auto", fontSize: "0.85rem", whiteSpace: "pre-wrap" });
export const proposal = style({ ...boxedItem, border: `2px solid ${vars.color.primary}` });
/** The rows a proposal acts on: a compact list of fields; visitors' text quoted and wrapped anywhere. */
export const sourceRow = style({
  fontSize: "0.9rem",
  borderLeft: `3px solid ${vars.color.border}`,
  paddingLeft: space.sm,
});
export const sourceFields = style({ margin: 0, display: "grid", gap: space.xs });
export const sourceField = style({
  display: "grid",
  gridTemplateColumns: "minmax(6rem, max-content) minmax(0, 1fr)",
  gap: space.sm,
});
globalStyle(`${sourceField} dt`, { fontWeight: 600 });
globalStyle(`${sourceField} dd`, { margin: 0, overflowWrap: "anywhere", whiteSpace: "pre-wrap" });
export const visitorBadge = style({ fontWeight: 400, fontStyle: "italic" });
export const composer = style({ display: "flex", flexDirection: "column", gap: space.sm });
export const composerRow = style({ display: "flex", flexWrap: "wrap", alignItems: "flex-end", gap: space.sm });
export const textarea = style({ minHeight: "5rem", resize: "vertical" });
export const flush = style({ margin: 0 });
export const tight = style({ display: "flex", flexDirection: "column", gap: space.sm });
export const toolInputLabel = style({ margin: `${space.xs} 0` });
export const toastOnTop = style({ zIndex: 61 });
export const sidebarHeading = style({ margin: 0, fontSize: "1.1rem" });
export const conversationText = style({ minWidth: 0, flex: 1 });
export const heading = style({ margin: 0 });
// The select is as wide as its longest option (provider · model): it may shrink to the column.
export const providerLabel = style({ display: "flex", flexDirection: "column", gap: space.xs, minWidth: 0, maxWidth: "100%" });
export const providerSelect = style({ width: "auto", maxWidth: "100%" });
export const tableScroll = style({ overflowX: "auto" });
const spin = keyframes({ to: { transform: "rotate(360deg)" } });
export const spinner = style({
  display: "inline-block",
  width: "1rem",
  height: "1rem",
  border: `2px solid ${vars.color.border}`,
  borderTopColor: vars.color.primary,
  borderRadius: radius.full,
  animation: `${spin} 0.8s linear infinite`,
  "@media": { "(prefers-reduced-motion: reduce)": { animation: "none" } },
});
