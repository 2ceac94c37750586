import { style } from "@vanilla-extract/css";
import { breakpoints, radius, space, vars } from "~/styles/theme.css";

/* Home */
/** The hero's main action: solid and larger, so it reads first. */
export const heroPrimary = style({
  display: "inline-flex",
  alignItems: "center",
  minHeight: "3rem",
  padding: `${space.sm} ${space.xl}`,
  borderRadius: radius.md,
  background: "#ffffff",
  color: "#1e1b4b",
  textShadow: "none",
  fontWeight: 800,
  fontSize: "1.1rem",
  textDecoration: "none",
  boxShadow: "0 2px 8px rgba(0,0,0,0.25)",
});
export const allPlatforms = style({ margin: `${space.md} 0 0`, fontWeight: 700 });
export const heroActions = style({ display: "flex", flexWrap: "wrap", gap: space.sm, marginTop: space.md });
export const heroLink = style({
  display: "inline-flex",
  alignItems: "center",
  minHeight: "2.75rem",
  padding: `${space.sm} ${space.lg}`,
  borderRadius: radius.md,
  background: "rgba(0,0,0,0.45)",
  color: "#ffffff",
  fontWeight: 700,
  textDecoration: "none",
  border: "1px solid rgba(255,255,255,0.6)",
});

export const carousel = style({ position: "relative" });
export const carouselControls = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  gap: space.sm,
  marginTop: space.sm,
  flexWrap: "wrap",
  // Wide: three columns, the arrows and dots in the middle one, the pause button in the third, so the
  // dots sit under the carousel's centre (the pause button no longer pushes them aside).
  "@media": {
    [breakpoints.wide]: { display: "grid", gridTemplateColumns: "minmax(0, 1fr) auto minmax(0, 1fr)" },
  },
});
export const carouselNav = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  flexWrap: "wrap",
  gap: space.sm,
  "@media": { [breakpoints.wide]: { gridColumn: "2" } },
});
export const arrow = style({
  minWidth: "2.75rem",
  minHeight: "2.75rem",
  borderRadius: radius.full,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surfaceAlt,
  color: vars.color.text,
  cursor: "pointer",
  fontSize: "1.25rem",
});
export const dots = style({ display: "flex", gap: space.xs, listStyle: "none", margin: 0, padding: 0 });
/** 24 px, WCAG's least target size: six dots and both arrows fit one row at 320 px (28 px wrapped the next arrow). */
export const dot = style({
  width: "1.5rem",
  height: "1.5rem",
  borderRadius: radius.full,
  border: `2px solid ${vars.color.textMuted}`,
  background: "transparent",
  cursor: "pointer",
  padding: 0,
  selectors: { '&[aria-current="true"]': { background: vars.color.text, borderColor: vars.color.text } },
});
export const platformCard = style({
  display: "flex",
  flexDirection: "column",
  gap: space.sm,
  height: "100%",
  justifyContent: "space-between",
});

export const steps = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "grid",
  gap: space.md,
  gridTemplateColumns: "repeat(auto-fit, minmax(min(100%, 14rem), 1fr))",
});
export const stepNumber = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  width: "2.25rem",
  height: "2.25rem",
  borderRadius: radius.full,
  background: vars.color.primary,
  color: vars.color.onPrimary,
  fontWeight: 800,
  marginBottom: space.sm,
});

export const promo = style({ display: "flex", flexDirection: "column", gap: space.sm });
export const promoFree = style({ alignSelf: "flex-start", background: vars.color.successBg, color: vars.color.success });
export const featureList = style({ margin: 0, paddingLeft: space.lg });

export const stripHeader = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: space.md,
  flexWrap: "wrap",
});
export const strip = style({
  display: "grid",
  gridAutoFlow: "column",
  gridAutoColumns: "min(85%, 18rem)",
  gap: space.md,
  overflowX: "auto",
  scrollSnapType: "x mandatory",
  // No `scroll-behavior: smooth` here: Chrome then snaps the list with an animated scroll at load,
  // which ends Largest Contentful Paint before it is recorded (Lighthouse: NO_LCP on the home page).
  // The arrows ask for a smooth scroll themselves.
  listStyle: "none",
  margin: 0,
  padding: `${space.sm} ${space.xs} ${space.md}`,
  "@media": {
    [breakpoints.wide]: { gridAutoColumns: `calc((100% - 2 * ${space.md}) / 3)` },
  },
});
export const stripItem = style({ scrollSnapAlign: "start", position: "relative" });

/* Partnerships */
export const partnerCard = style({
  position: "relative",
  display: "flex",
  flexDirection: "column",
  gap: space.sm,
  alignItems: "flex-start",
  height: "100%",
});
/**
 * The logo's box is fixed before the image arrives (or fails to): a partner's logo is on another
 * site, of a size nobody knows in advance, and a box that grew when it loaded would push the rest of
 * the page down under the visitor's finger. The logo fits inside it, drawn from its left edge.
 */
export const partnerLogo = style({
  display: "block",
  width: "10rem",
  height: "3rem",
  maxWidth: "100%",
  objectFit: "contain",
  objectPosition: "left center",
});
export const partnerLink = style({ fontWeight: 700, fontSize: "1.1rem" });
export const footerLinks = style({ display: "flex", flexWrap: "wrap", gap: space.md, listStyle: "none", margin: 0, padding: 0 });

/* Legal */
export const prose = style({ maxWidth: "46rem" });

/** With scripts the arrows replace the next card's peek: one whole card per view on a phone. */
export const carouselList = style({
  "@media": {
    "(scripting: enabled)": { scrollbarWidth: "none" },
    "(scripting: enabled) and (max-width: 767.98px)": { gridAutoColumns: "100%" },
  },
});
/** Shown on a phone only: the carousel's last dot, and its controls when two cards fit side by side. */
export const narrowOnly = style({ "@media": { [breakpoints.wide]: { display: "none" } } });
export const wideOnly = style({ display: "none", "@media": { [breakpoints.wide]: { display: "inline" } } });
export const pauseButton = style({
  minHeight: "2.75rem",
  padding: `0 ${space.md}`,
  fontSize: "0.9rem",
  "@media": { [breakpoints.wide]: { gridColumn: "3", justifySelf: "start" } },
});
/** The pause button while nothing plays: it keeps its place (see platform-carousel.tsx). */
export const pauseButtonIdle = style({ visibility: "hidden" });
export const stripSection = style({ padding: `${space.xl} 0` });
export const stripTools = style({ display: "flex", alignItems: "center", gap: space.sm });
export const promoLink = style({ fontWeight: 700 });
export const plainList = style({ listStyle: "none", margin: 0, padding: 0 });
/**
 * The search field's share of its row: on the field (label and input, a column), never on the input
 * inside it, where a flex basis becomes a height (the input was drawn 12rem tall).
 */
export const searchField = style({ flex: "1 1 12rem", minWidth: 0 });

export const platformCardTitle = style({ margin: 0, fontSize: "1.25rem" });
/** The /platforms search and the list under it: a gap between them, not glued (issue 59). */
export const searchForm = style({ marginBottom: space.lg });
/** A card's heading with its brand mark or emoji before the name, centred on the name's line. */
export const markedTitle = style({ display: "flex", alignItems: "center", gap: space.sm, minWidth: 0 });
