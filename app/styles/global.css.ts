import { globalStyle } from "@vanilla-extract/css";
import { gradientFrom, gradientTo, vars } from "./theme.css";

globalStyle("*, *::before, *::after", { boxSizing: "border-box" });
globalStyle(":root", {
  colorScheme: "dark",
  vars: { [gradientFrom]: "#6d28d9", [gradientTo]: "#be185d" },
});
globalStyle(':root[data-theme="light"]', { colorScheme: "light" });
globalStyle("html", { WebkitTextSizeAdjust: "100%", scrollPaddingTop: "5rem" });
globalStyle("body", {
  margin: 0,
  minHeight: "100vh",
  display: "flex",
  flexDirection: "column",
  background: vars.color.bg,
  color: vars.color.text,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontSize: "1rem",
  lineHeight: 1.55,
});
globalStyle("a", { color: vars.color.link, textUnderlineOffset: "0.15em" });
globalStyle("a:hover", { textDecorationThickness: "2px" });
// Long German compounds and URLs wrap (with hyphens where the language allows) instead of overflowing.
globalStyle("h1, h2, h3", { lineHeight: 1.2, margin: "0 0 0.5em", overflowWrap: "anywhere", hyphens: "auto" });
globalStyle("body", { overflowWrap: "break-word" });
globalStyle("p", { margin: "0 0 1em" });
globalStyle("img, svg", { maxWidth: "100%" });
globalStyle(":focus-visible", { outline: `3px solid ${vars.color.focus}`, outlineOffset: "2px", borderRadius: "2px" });
globalStyle("button, input, select, textarea", { font: "inherit", color: "inherit" });
globalStyle("main", { flex: "1 0 auto" });
globalStyle("*", {
  "@media": {
    "(prefers-reduced-motion: reduce)": {
      animationDuration: "0.01ms !important",
      animationIterationCount: "1 !important",
      transitionDuration: "0.01ms !important",
    },
  },
});
