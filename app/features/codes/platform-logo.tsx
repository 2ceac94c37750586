import { useRootData } from "~/utils/root-data";
import * as styles from "./codes.css";

/** Uploaded logos live under /uploads; anything else must be an http(s) URL. */
function logoSrc(value: string | null): string | null {
  if (!value) return null;
  if (/^\/uploads\/[\w./-]+$/.test(value) && !value.includes("..")) return value;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** A brand mark from simple-icons (brand-marks.server.ts gives it to the loaders). */
export interface BrandMark {
  /** The icon's path on simple-icons' 24 × 24 grid. */
  path: string;
  /** The brand's own colour. */
  color: string;
}

/**
 * The brand's mark as inline SVG, unaltered, in its own colour on a white tile in both themes (the
 * colours the brands draw them on), else the emoji. Decorative: the platform's name is always beside it.
 */
function BrandMarkOrEmoji({ mark, emoji, size }: { mark: BrandMark | null; emoji: string; size: "card" | "hero" }) {
  if (mark) {
    return (
      <span className={styles.markTile[size]} data-testid="brand-mark" aria-hidden="true">
        <svg viewBox="0 0 24 24" className={styles.markSvg} focusable="false">
          <path d={mark.path} fill={mark.color} />
        </svg>
      </span>
    );
  }
  return (
    <span className={size === "hero" ? styles.emoji : styles.cardEmoji} aria-hidden="true">
      {emoji}
    </span>
  );
}

/** The custom logo for the theme in force (the other one as fallback), else the brand mark, else the emoji. */
export function PlatformLogo({
  name,
  emoji,
  light,
  dark,
  mark = null,
  size = "hero",
}: {
  name: string;
  emoji: string;
  light: string | null;
  dark: string | null;
  mark?: BrandMark | null;
  /** The platform pages' header, or a card (where the name beside it says it all: no alt text). */
  size?: "card" | "hero";
}) {
  const theme = useRootData()?.theme ?? "dark";
  const src = theme === "light" ? (logoSrc(light) ?? logoSrc(dark)) : (logoSrc(dark) ?? logoSrc(light));
  if (src) {
    return size === "hero" ? (
      <img className={styles.logo} src={src} alt={name} width={72} height={72} />
    ) : (
      <img className={styles.cardLogo} src={src} alt="" width={40} height={40} />
    );
  }
  return <BrandMarkOrEmoji mark={mark} emoji={emoji} size={size} />;
}
