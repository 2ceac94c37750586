import { globalStyle, style, styleVariants } from "@vanilla-extract/css";
import { codeFrame } from "~/styles/fragments";
import { radius, space, vars } from "~/styles/theme.css";

export const heroInner = style({ display: "flex", flexWrap: "wrap", alignItems: "center", gap: space.lg });
// The heading's box may shrink below its longest word, so a German compound wraps inside the hero.
globalStyle(`${heroInner} > *`, { minWidth: 0 });
export const logo = style({
  width: "4.5rem",
  height: "4.5rem",
  objectFit: "contain",
  borderRadius: radius.md,
  background: "rgba(255,255,255,0.12)",
});
export const emoji = style({ fontSize: "3.5rem", lineHeight: 1 });
export const cardLogo = style([logo, { width: "2.5rem", height: "2.5rem", flex: "none" }]);
export const cardEmoji = style({ fontSize: "2rem", lineHeight: 1 });
/** A brand mark's tile: white in both themes, the background the brands draw their colours on. */
const markTileBase = style({
  display: "inline-flex",
  flex: "none",
  alignItems: "center",
  justifyContent: "center",
  background: "#ffffff",
  borderRadius: radius.md,
  boxShadow: "0 0 0 1px rgba(15, 23, 42, 0.12)",
});
export const markTile = styleVariants({
  card: [markTileBase, { width: "2.5rem", height: "2.5rem", padding: "0.4rem" }],
  hero: [markTileBase, { width: "4.5rem", height: "4.5rem", padding: "0.85rem" }],
});
export const markSvg = style({ display: "block", width: "100%", height: "100%" });
export const heroActions = style({ display: "flex", flexWrap: "wrap", gap: space.sm, marginTop: space.md });
/** Buttons sitting on a platform gradient: solid dark so contrast never depends on the colours. */
export const onGradientButton = style({
  display: "inline-flex",
  alignItems: "center",
  minHeight: "2.75rem",
  padding: `${space.sm} ${space.lg}`,
  borderRadius: radius.md,
  background: "rgba(2, 6, 23, 0.85)",
  color: "#ffffff",
  fontWeight: 700,
  textDecoration: "none",
  textShadow: "none",
  border: "1px solid rgba(255,255,255,0.5)",
});
export const count = style({ fontWeight: 700, margin: `${space.sm} 0 0` });
export const steps = style({
  display: "grid",
  gap: space.md,
  gridTemplateColumns: "repeat(auto-fit, minmax(min(100%, 14rem), 1fr))",
  listStyle: "none",
  padding: 0,
  margin: 0,
});
export const stepNumber = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  width: "2rem",
  height: "2rem",
  borderRadius: radius.full,
  background: vars.color.primary,
  color: vars.color.onPrimary,
  fontWeight: 700,
  marginRight: space.sm,
});
export const codeBox = style({
  fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
  fontSize: "clamp(1.5rem, 6vw, 2.5rem)",
  fontWeight: 800,
  letterSpacing: "0.08em",
  textAlign: "center",
  ...codeFrame,
  userSelect: "all",
  wordBreak: "break-all",
  margin: 0,
});
export const slot = style([codeBox, { userSelect: "none", opacity: 0.85 }]);
export const linkText = style({ wordBreak: "break-all", fontFamily: "ui-monospace, monospace", fontSize: "0.9rem", margin: 0 });
export const previewBanner = style({ marginBottom: space.md });
export const shareList = style({ display: "flex", flexWrap: "wrap", gap: space.sm, listStyle: "none", padding: 0, margin: 0 });

/**
 * The result's buttons (copy, open the link, share): equal columns that fill the row, so on a phone
 * they stack or pair evenly instead of wrapping raggedly; each button fills its cell.
 */
export const resultActions = style({
  display: "grid",
  gap: space.sm,
  gridTemplateColumns: "repeat(auto-fit, minmax(min(100%, 9.5rem), 1fr))",
});
globalStyle(`${resultActions} > *`, { justifyContent: "center", textAlign: "center" });

/** Two states drawn in one place (the slot machine and the code it ends on): the taller sets the height. */
export const swap = style({ display: "grid" });
globalStyle(`${swap} > *`, { gridArea: "1 / 1" });
/** Laid out and hidden: what the result shows once the slot machine ends keeps its room meanwhile. */
export const reserved = style({ visibility: "hidden" });
/** The spinning code is the skip control, drawn over the code's box (the same cell), never taller. */
export const skip = style({
  position: "relative",
  display: "block",
  minWidth: 0,
  overflow: "hidden",
  padding: 0,
  border: "none",
  background: "none",
  color: "inherit",
  font: "inherit",
  cursor: "pointer",
});
globalStyle(`${skip} > *`, { display: "block", height: "100%", whiteSpace: "nowrap", overflow: "hidden" });
/** Under the spinning code, how to skip it (the button's `data-hint`, in the visitor's language). */
globalStyle(`${skip}::after`, {
  content: "attr(data-hint)",
  position: "absolute",
  insetInline: 0,
  bottom: "0.2rem",
  fontSize: "0.75rem",
  fontWeight: 600,
  color: vars.color.textMuted,
});
