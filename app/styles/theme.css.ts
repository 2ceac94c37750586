import { createGlobalTheme, createThemeContract, createVar } from "@vanilla-extract/css";

/** One theme contract; the `data-theme` attribute on <html> picks light or dark (dark by default). */
export const vars = createThemeContract({
  color: {
    bg: null,
    surface: null,
    surfaceAlt: null,
    text: null,
    textMuted: null,
    border: null,
    primary: null,
    primaryHover: null,
    onPrimary: null,
    link: null,
    focus: null,
    danger: null,
    dangerBg: null,
    success: null,
    successBg: null,
    warningBg: null,
    overlay: null,
  },
  shadow: { card: null },
});

const dark = {
  color: {
    bg: "#0b1020",
    surface: "#131a2e",
    surfaceAlt: "#1b2440",
    text: "#f1f5f9",
    textMuted: "#c1cad8",
    border: "#334155",
    primary: "#7c3aed",
    primaryHover: "#6d28d9",
    onPrimary: "#ffffff",
    link: "#c4b5fd",
    focus: "#fbbf24",
    danger: "#fca5a5",
    dangerBg: "#3b1219",
    success: "#86efac",
    successBg: "#0f2e1c",
    warningBg: "#3a2a06",
    overlay: "rgba(2, 6, 23, 0.7)",
  },
  shadow: { card: "0 8px 24px rgba(0, 0, 0, 0.35)" },
};

const light = {
  color: {
    bg: "#f8fafc",
    surface: "#ffffff",
    surfaceAlt: "#eef2f7",
    text: "#0f172a",
    textMuted: "#475569",
    border: "#cbd5e1",
    primary: "#6d28d9",
    primaryHover: "#5b21b6",
    onPrimary: "#ffffff",
    link: "#5b21b6",
    focus: "#b45309",
    danger: "#b91c1c",
    dangerBg: "#fee2e2",
    success: "#166534",
    successBg: "#dcfce7",
    warningBg: "#fef3c7",
    overlay: "rgba(15, 23, 42, 0.5)",
  },
  shadow: { card: "0 4px 16px rgba(15, 23, 42, 0.08)" },
};

createGlobalTheme(':root, :root[data-theme="dark"]', vars, dark);
createGlobalTheme(':root[data-theme="light"]', vars, light);

/** A platform's own colours; set inline on a page with assignInlineVars. */
export const gradientFrom = createVar();
export const gradientTo = createVar();

export const space = { xs: "0.25rem", sm: "0.5rem", md: "1rem", lg: "1.5rem", xl: "2.5rem", xxl: "4rem" };
export const radius = { sm: "0.375rem", md: "0.75rem", lg: "1.25rem", full: "999px" };
export const breakpoints = { drawer: "screen and (max-width: 767.98px)", wide: "screen and (min-width: 768px)" };
