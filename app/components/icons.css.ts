import { style } from "@vanilla-extract/css";

// The header's icons, drawn by the stylesheet with gradients (decisions 252 and 265): emoji glyphs the
// page's fonts lack made the first layout search the system's fonts; inline SVG elements cost 0.4 KB
// of JavaScript in every page's layout chunk; SVG images (data URLs, as these were) each make the
// browser build a whole SVG document during the first style pass, which was half of that pass on a
// throttled phone. Gradients are painted, never parsed as documents.

const icon = style({
  display: "inline-block",
  width: "1em",
  height: "1em",
  verticalAlign: "-0.125em",
  backgroundRepeat: "no-repeat",
});

const bar = "linear-gradient(currentColor, currentColor)";

/** Three bars in the text's colour. */
export const menu = style([
  icon,
  {
    backgroundImage: `${bar}, ${bar}, ${bar}`,
    backgroundSize: "78% 0.11em",
    backgroundPosition: "50% 22%, 50% 50%, 50% 78%",
  },
]);

const SUN = "#f5b301";
/** A disc and eight rays. */
export const sun = style([
  icon,
  {
    backgroundImage: `radial-gradient(circle, ${SUN} 0 0.2em, transparent 0.21em), repeating-conic-gradient(from -8deg, ${SUN} 0 16deg, transparent 16deg 45deg)`,
    maskImage: "radial-gradient(circle, #000 0 0.21em, transparent 0.22em 0.3em, #000 0.31em 0.48em, transparent 0.49em)",
    WebkitMaskImage: "radial-gradient(circle, #000 0 0.21em, transparent 0.22em 0.3em, #000 0.31em 0.48em, transparent 0.49em)",
  },
]);

/** A crescent: a disc's inner shadow. */
export const moon = style([
  icon,
  {
    width: "0.8em",
    height: "0.8em",
    margin: "0.1em",
    borderRadius: "50%",
    boxShadow: "inset -0.26em -0.12em 0 0 #f5c542",
    transform: "rotate(-20deg)",
  },
]);

const RED = "#e5484d";
const GOLD = "#f5c542";
const fill = (c: string) => `linear-gradient(${c}, ${c})`;
/** A box, its lid, a ribbon and a bow. */
export const gift = style([
  icon,
  {
    backgroundImage: [
      fill(GOLD),
      `radial-gradient(circle at 36% 27%, transparent 0 0.05em, ${GOLD} 0.055em 0.11em, transparent 0.115em)`,
      `radial-gradient(circle at 64% 27%, transparent 0 0.05em, ${GOLD} 0.055em 0.11em, transparent 0.115em)`,
      fill(RED),
      fill(RED),
    ].join(", "),
    backgroundSize: "0.13em 0.6em, 100% 100%, 100% 100%, 0.8em 0.18em, 0.66em 0.4em",
    backgroundPosition: "50% 100%, 0 0, 0 0, 50% 0.36em, 50% 100%",
  },
]);
