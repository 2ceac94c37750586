import { style } from "@vanilla-extract/css";

// The header's icons as small SVG images in the stylesheet (decision 252): emoji glyphs the page's
// fonts lack made the first layout search the system's fonts; inline SVG elements cost 0.4 KB of
// JavaScript in every page's layout chunk. Here they cost neither, only a few hundred bytes of the
// inlined stylesheet.
// Only what a data URL in double quotes needs escaped (%, #, <, >): a third of encodeURIComponent's size.
const svg = (body: string) =>
  `url("data:image/svg+xml,${`<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'>${body}</svg>`.replace(
    /[%#<>]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )}")`;

const icon = style({
  display: "inline-block",
  width: "1em",
  height: "1em",
  verticalAlign: "-0.125em",
  backgroundRepeat: "no-repeat",
  backgroundPosition: "center",
  backgroundSize: "contain",
});

const menuShape = svg("<path d='M4 6h16M4 12h16M4 18h16' stroke='black' stroke-width='2.5' stroke-linecap='round'/>");

/** Three bars in the text's colour (a mask over it). */
export const menu = style([
  icon,
  {
    backgroundColor: "currentColor",
    maskImage: menuShape,
    WebkitMaskImage: menuShape,
    maskSize: "contain",
    WebkitMaskSize: "contain",
  },
]);

export const sun = style([
  icon,
  {
    backgroundImage: svg(
      "<g fill='#f5b301' stroke='#f5b301' stroke-width='2' stroke-linecap='round'><circle cx='12' cy='12' r='4.5'/><path d='M12 1.5v2.5M12 20v2.5M1.5 12H4M20 12h2.5M4.6 4.6l1.8 1.8M17.6 17.6l1.8 1.8M4.6 19.4l1.8-1.8M17.6 6.4l1.8-1.8'/></g>",
    ),
  },
]);

export const moon = style([
  icon,
  { backgroundImage: svg("<path fill='#f5c542' d='M20.5 14.6A8.5 8.5 0 0 1 9.4 3.5a8.5 8.5 0 1 0 11.1 11.1z'/>") },
]);

export const gift = style([
  icon,
  {
    backgroundImage: svg(
      "<rect x='3' y='9' width='18' height='4' rx='1' fill='#e5484d'/><rect x='4.5' y='13' width='15' height='8.5' rx='1' fill='#e5484d'/><path d='M10.5 9h3v12.5h-3z' fill='#f5c542'/><path d='M12 9c-1.5-3-5.5-4.5-6.5-2.3C4.7 8.4 8 9 12 9zm0 0c1.5-3 5.5-4.5 6.5-2.3C19.3 8.4 16 9 12 9z' fill='none' stroke='#f5c542' stroke-width='1.6'/>",
    ),
  },
]);
