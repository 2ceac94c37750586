import { globalStyle, keyframes, style } from "@vanilla-extract/css";
import { breakpoints, radius, space, vars } from "./theme.css";

export const skipLink = style({
  position: "absolute",
  left: space.md,
  top: "-4rem",
  zIndex: 100,
  padding: space.sm,
  background: vars.color.surface,
  selectors: { "&:focus": { top: space.md } },
});

export const main = style({ padding: `${space.lg} 0 ${space.xxl}`, outline: "none" });

export const header = style({
  position: "sticky",
  top: 0,
  zIndex: 20,
  background: vars.color.surface,
  borderBottom: `1px solid ${vars.color.border}`,
});
export const headerInner = style({
  display: "flex",
  // At 320 px the tools wrap under the brand instead of widening the page.
  flexWrap: "wrap",
  alignItems: "center",
  columnGap: space.md,
  rowGap: space.xs,
  // A phone: one row (drawer, brand, language, theme), so a drawn code stays in the upper half.
  "@media": { [breakpoints.drawer]: { columnGap: space.sm, paddingBlock: space.xs, paddingInline: space.sm } },
  minHeight: "4rem",
  maxWidth: "72rem",
  margin: "0 auto",
  padding: `0 ${space.md}`,
});
export const brand = style({
  fontWeight: 800,
  fontSize: "1.25rem",
  color: vars.color.text,
  textDecoration: "none",
  marginRight: "auto",
  whiteSpace: "nowrap",
  "@media": { [breakpoints.drawer]: { fontSize: "1.125rem" } },
});
export const nav = style({
  display: "flex",
  alignItems: "center",
  gap: space.md,
  "@media": { [breakpoints.drawer]: { display: "none" } },
});
export const navLink = style({ color: vars.color.text, fontWeight: 600, textDecoration: "none", padding: `${space.xs} 0` });
export const headerTools = style({ display: "flex", alignItems: "center", gap: space.sm });
export const inlineForm = style({ display: "flex", alignItems: "center", gap: space.xs, margin: 0 });
export const iconButton = style({
  minWidth: "2.5rem",
  minHeight: "2.5rem",
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  borderRadius: radius.md,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surfaceAlt,
  color: vars.color.text,
  cursor: "pointer",
  padding: `0 ${space.sm}`,
});

// The language menu: <details>/<summary> too, a list of buttons under its corner.
export const languageMenu = style({ position: "relative" });
export const languageSummary = style([
  iconButton,
  {
    listStyle: "none",
    fontWeight: 700,
    fontSize: "0.875rem",
    selectors: {
      "&::-webkit-details-marker": { display: "none" },
      "&::after": { content: '"▾"', marginLeft: "0.25rem", fontSize: "0.75rem" },
    },
  },
]);
export const languagePanel = style({
  position: "absolute",
  right: 0,
  top: "calc(100% + 0.25rem)",
  zIndex: 30,
  display: "flex",
  flexDirection: "column",
  minWidth: "9rem",
  margin: 0,
  padding: space.xs,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: radius.md,
  boxShadow: vars.shadow.card,
  // Closed: no box at all (a closed details' content may keep its layout box in Chromium).
  selectors: { [`${languageMenu}:not([open]) &`]: { display: "none" } },
});
export const languageOption = style({
  minHeight: "2.5rem",
  padding: `0 ${space.sm}`,
  textAlign: "left",
  border: 0,
  borderRadius: radius.sm,
  background: "transparent",
  color: vars.color.text,
  font: "inherit",
  cursor: "pointer",
  selectors: {
    "&:hover": { background: vars.color.surfaceAlt },
    '&[aria-current="true"]': { fontWeight: 700 },
  },
});

// Drawer: <details>/<summary>, so it opens and closes without JavaScript.
export const drawer = style({ display: "none", "@media": { [breakpoints.drawer]: { display: "block" } } });
export const drawerSummary = style([
  iconButton,
  { listStyle: "none", position: "relative", zIndex: 41, selectors: { "&::-webkit-details-marker": { display: "none" } } },
]);
export const drawerPanel = style({
  position: "fixed",
  inset: "0 auto 0 0",
  width: "min(80vw, 20rem)",
  zIndex: 40,
  background: vars.color.surface,
  borderRight: `1px solid ${vars.color.border}`,
  padding: `5rem ${space.lg} ${space.lg}`,
  display: "flex",
  flexDirection: "column",
  gap: space.md,
  boxShadow: vars.shadow.card,
});
export const drawerBackdrop = style({ position: "fixed", inset: 0, zIndex: 39, background: vars.color.overlay });

export const footer = style({
  borderTop: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  padding: `${space.lg} 0`,
});
export const footerInner = style({
  display: "flex",
  flexWrap: "wrap",
  gap: space.md,
  justifyContent: "space-between",
  alignItems: "center",
  maxWidth: "72rem",
  margin: "0 auto",
  padding: `0 ${space.md}`,
});
export const footerLinks = style({
  display: "flex",
  flexWrap: "wrap",
  gap: `${space.xs} ${space.md}`,
  listStyle: "none",
  margin: 0,
  padding: 0,
});

// The toast's 5 s in two animations. Its look (slide in, fade out) moves only opacity and transform,
// which the compositor runs without the page's main thread. Its end (hidden for good: neither read
// out nor in the way of a finger) is a second animation that waits its 5 s as a delay and then
// holds `visibility: hidden`. One animation with `visibility` among its keyframes cannot run on the
// compositor: the main thread recalculated the page's style every frame for the toast's 5 s, about
// 120 times in 2 s (decision 290).
const toastLife = keyframes({
  "0%": { opacity: 0, transform: "translateY(0.5rem)" },
  "4%": { opacity: 1, transform: "none" },
  "96%": { opacity: 1 },
  "100%": { opacity: 0 },
});
/** Its name is also what the toast's script waits for (`animationend`) before it takes the toast away. */
export const toastGone = keyframes({
  "0%, 100%": { visibility: "hidden" },
});
export const toastRegion = style({
  position: "fixed",
  right: space.md,
  bottom: space.md,
  left: space.md,
  zIndex: 60,
  display: "flex",
  justifyContent: "flex-end",
  pointerEvents: "none",
});
export const toastDismiss = style({
  position: "absolute",
  opacity: 0,
  width: 1,
  height: 1,
  // Hidden with its toast (paused with it below): an ended toast leaves no invisible stop in the
  // keyboard's path, JS or not.
  animation: `${toastGone} 1ms 5s forwards`,
});
export const toast = style({
  pointerEvents: "auto",
  // Horizontal swipes belong to the toast (dismiss); vertical ones still scroll the page.
  touchAction: "pan-y",
  display: "flex",
  alignItems: "flex-start",
  gap: space.md,
  maxWidth: "28rem",
  padding: `${space.md} ${space.lg}`,
  borderRadius: radius.md,
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  boxShadow: vars.shadow.card,
  // 5 s on screen, then gone: works without JavaScript.
  animation: `${toastLife} 5s ease forwards, ${toastGone} 1ms 5s forwards`,
  selectors: {
    [`${toastDismiss}:checked + &`]: { display: "none" },
    // Paused while read: under the pointer, or with the focus in the notifications (F8 brings it to
    // the region; Tab to the toast's close box), so its 5 s do not run out under the reader.
    [`&:hover, &:focus-within, ${toastRegion}:focus-within &`]: { animationPlayState: "paused" },
  },
  // For those who asked for less motion it neither slides nor fades: shown for its 5 s, then hidden.
  // The site-wide rule (every animation 0.01 ms) leaves the end's 5 s delay as it is.
  "@media": {
    "(prefers-reduced-motion: reduce)": {
      animationName: `none, ${toastGone} !important`,
    },
  },
});
// The close box is the toast's sibling (its `:checked` hides the toast): paused when the toast is.
globalStyle(`${toastRegion}:focus-within ${toastDismiss}, ${toastDismiss}:has(+ ${toast}:hover)`, {
  animationPlayState: "paused",
});
export const toastSuccess = style({ borderLeft: `6px solid ${vars.color.success}` });
export const toastError = style({ borderLeft: `6px solid ${vars.color.danger}` });
export const toastInfo = style({ borderLeft: `6px solid ${vars.color.link}` });
export const toastClose = style({
  cursor: "pointer",
  fontSize: "1.25rem",
  lineHeight: 1,
  padding: `0 ${space.xs}`,
  borderRadius: radius.sm,
  selectors: { [`${toastDismiss}:focus-visible + ${toast} &`]: { outline: `3px solid ${vars.color.focus}` } },
});
