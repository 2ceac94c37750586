import { globalStyle, style, styleVariants } from "@vanilla-extract/css";
import { pill } from "./fragments";
import { breakpoints, gradientFrom, gradientTo, radius, space, vars } from "./theme.css";

/** Shared building blocks; features compose these instead of restyling the basics. */
export const container = style({ width: "100%", maxWidth: "72rem", margin: "0 auto", padding: `0 ${space.md}` });
export const narrow = style({ width: "100%", maxWidth: "40rem", margin: "0 auto", padding: `0 ${space.md}` });
export const section = style({ paddingBlock: space.xl });
export const stack = style({ display: "flex", flexDirection: "column", gap: space.md });
export const row = style({ display: "flex", flexWrap: "wrap", alignItems: "center", gap: space.sm });
export const muted = style({ color: vars.color.textMuted });
export const visuallyHidden = style({
  position: "absolute",
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
  border: 0,
});

export const card = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: radius.lg,
  padding: space.lg,
  boxShadow: vars.shadow.card,
});
/** Card variants, picked with cardClass() from recipes.ts. */
export const cardTone = styleVariants({
  plain: {},
  centered: { textAlign: "center" },
});

export const grid = style({
  display: "grid",
  gap: space.md,
  // auto-fit, not auto-fill: three cards fill the row instead of leaving a fourth column empty.
  gridTemplateColumns: "repeat(auto-fit, minmax(min(100%, 16rem), 1fr))",
});

const buttonBase = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  gap: space.sm,
  minHeight: "2.75rem",
  padding: `${space.sm} ${space.lg}`,
  borderRadius: radius.md,
  border: "1px solid transparent",
  fontWeight: 600,
  textDecoration: "none",
  cursor: "pointer",
  transition: "background 120ms ease, transform 120ms ease",
  selectors: {
    "&:disabled, &[aria-disabled='true']": { opacity: 0.6, cursor: "not-allowed" },
    "&:active:not(:disabled)": { transform: "translateY(1px)" },
  },
});

export const button = styleVariants({
  primary: [
    buttonBase,
    {
      background: vars.color.primary,
      color: vars.color.onPrimary,
      selectors: { "&:hover:not(:disabled)": { background: vars.color.primaryHover } },
    },
  ],
  secondary: [buttonBase, { background: vars.color.surfaceAlt, color: vars.color.text, borderColor: vars.color.border }],
  ghost: [buttonBase, { background: "transparent", color: vars.color.text, borderColor: vars.color.border }],
  danger: [buttonBase, { background: vars.color.dangerBg, color: vars.color.danger, borderColor: vars.color.danger }],
  gradient: [
    buttonBase,
    {
      // Dark text shadow keeps white text readable on any platform gradient.
      background: `linear-gradient(135deg, ${gradientFrom}, ${gradientTo})`,
      color: "#ffffff",
      textShadow: "0 1px 2px rgba(0,0,0,0.6)",
    },
  ],
});
export const buttonSmall = style({ minHeight: "2.25rem", padding: `${space.xs} ${space.md}`, fontSize: "0.9rem" });

export const field = style({ display: "flex", flexDirection: "column", gap: space.xs });
export const label = style({ fontWeight: 600 });
export const input = style({
  width: "100%",
  minHeight: "2.75rem",
  padding: `${space.sm} ${space.md}`,
  borderRadius: radius.md,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.bg,
  color: vars.color.text,
  selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.danger } },
});
export const hint = style({ fontSize: "0.9rem", color: vars.color.textMuted });
export const fieldError = style({ color: vars.color.danger, fontSize: "0.95rem", fontWeight: 600, margin: 0 });

export const alert = styleVariants({
  error: {
    padding: space.md,
    borderRadius: radius.md,
    background: vars.color.dangerBg,
    color: vars.color.danger,
    border: `1px solid ${vars.color.danger}`,
  },
  success: {
    padding: space.md,
    borderRadius: radius.md,
    background: vars.color.successBg,
    color: vars.color.success,
    border: `1px solid ${vars.color.success}`,
  },
  info: {
    padding: space.md,
    borderRadius: radius.md,
    background: vars.color.surfaceAlt,
    color: vars.color.text,
    border: `1px solid ${vars.color.border}`,
  },
  warning: {
    padding: space.md,
    borderRadius: radius.md,
    background: vars.color.warningBg,
    color: vars.color.text,
    border: `1px solid ${vars.color.border}`,
  },
});

export const badge = style({
  ...pill,
  background: vars.color.surfaceAlt,
  border: `1px solid ${vars.color.border}`,
});
/** Badge variants, picked with badgeClass() from recipes.ts. */
export const badgeTone = styleVariants({
  neutral: {},
  success: { background: vars.color.successBg, color: vars.color.success, borderColor: vars.color.success },
  danger: { background: vars.color.dangerBg, color: vars.color.danger, borderColor: vars.color.danger },
  warning: { background: vars.color.warningBg },
});

/** The gradient band used by platform pages and the hero. */
export const gradientHero = style({
  background: `linear-gradient(135deg, ${gradientFrom}, ${gradientTo})`,
  color: "#ffffff",
  textShadow: "0 1px 3px rgba(0,0,0,0.55)",
  borderRadius: radius.lg,
  padding: `${space.xl} ${space.lg}`,
  "@media": { "(max-width: 399px)": { padding: `${space.lg} ${space.md}` } },
});
// The hero's title scales with the width, so that its longest word ("équitablement",
// "Empfehlungscodes") fits a 320 px line whole instead of breaking mid-word (overflow-wrap: anywhere
// stays for words that could never fit).
globalStyle(`${gradientHero} h1`, { fontSize: "clamp(1.6rem, 1.1rem + 2.5vw, 2.25rem)" });

/** A horizontal scroll-snap list: fully usable without JS, a carousel's base with JS. */
export const snapList = style({
  display: "grid",
  gridAutoFlow: "column",
  gridAutoColumns: "min(85%, 22rem)",
  gap: space.md,
  overflowX: "auto",
  scrollSnapType: "x mandatory",
  padding: `${space.sm} ${space.xs} ${space.md}`,
  listStyle: "none",
  margin: 0,
  "@media": { [breakpoints.wide]: { gridAutoColumns: "calc((100% - 1rem) / 2)" } },
});
export const snapItem = style({ scrollSnapAlign: "start" });

/**
 * Small layout adjustments, instead of inline `style=`; inline styles are kept for per-row dynamic
 * values only. Compose them with a block's own class.
 */
export const flush = style({ margin: 0 });
/** A wrapper that lays out as if its children stood in its place (an empty one adds no gap). */
export const contents = style({ display: "contents" });
export const flushTop = style({ marginTop: 0 });
export const leadIn = style({ margin: `${space.sm} 0 0` });
export const spaceAbove = style({ marginTop: space.sm });
export const bareList = style({ listStyle: "none", padding: 0 });
export const bareFieldset = style({ border: "none", padding: 0, margin: 0 });
export const gapSm = style({ gap: space.sm });
export const padMd = style({ padding: space.md });
export const spread = style({ justifyContent: "space-between" });
export const alignEnd = style({ alignSelf: "flex-end" });
export const semibold = style({ fontWeight: 600 });
export const smallText = style({ fontSize: "0.85rem" });
export const bigEmoji = style({ fontSize: "3rem", margin: 0 });
export const lead = style({ fontSize: "1.25rem", fontWeight: 700, margin: 0 });
/** Off screen for everyone (the honeypot field): people never see it, bots fill it. */
export const offscreen = style({ position: "absolute", left: "-10000px", top: "auto", width: 1, height: 1, overflow: "hidden" });

/**
 * Controls only JavaScript can drive (carousel arrows and dots) are in the server's HTML already,
 * so hydration adds nothing that moves the page under a finger: a tap while a slow phone is still
 * hydrating lands where it was aimed. Without JavaScript they are not shown (decision 180).
 */
export const scriptOnly = style({ "@media": { "(scripting: none)": { display: "none !important" } } });
/** The no-JS fallback of a control (the language select's OK button): never shown where scripts run. */
export const noScriptOnly = style({ "@media": { "(scripting: enabled)": { display: "none !important" } } });
