import { globalStyle, style } from "@vanilla-extract/css";
import { dialogSurface } from "~/styles/fragments";
import { space, vars } from "~/styles/theme.css";

// Apart from the fields' styles (forms.css.ts): a page with fields and no confirmation loads none of these.
export const inlineForm = style({ display: "inline-flex", flexWrap: "wrap", gap: space.xs, alignItems: "center", margin: 0 });
// A flex item is at least as wide as its content by default: the logo form's file input (about 360 px
// drawn) widened its field past a 320 px phone's window, where the scroll box cut it and its hint.
globalStyle(`${inlineForm} > *`, { maxWidth: "100%" });

/** The confirmation dialog (JS only; without JS the confirmation step stands in). */
export const dialogModal = style({
  ...dialogSurface,
  maxWidth: "28rem",
  selectors: { "&::backdrop": { background: vars.color.overlay } },
});
export const dialogBody = style({ outline: "none", display: "flex", flexDirection: "column", gap: space.md });
export const confirmQuestion = style({ margin: 0, fontWeight: 700 });
export const dialogTitle = style({ margin: 0, fontSize: "1.15rem" });
