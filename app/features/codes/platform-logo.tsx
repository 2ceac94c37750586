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

/** The custom logo for the theme in force (the other one as fallback), else the emoji. */
export function PlatformLogo({
  name,
  emoji,
  light,
  dark,
}: {
  name: string;
  emoji: string;
  light: string | null;
  dark: string | null;
}) {
  const theme = useRootData()?.theme ?? "dark";
  const src = theme === "light" ? (logoSrc(light) ?? logoSrc(dark)) : (logoSrc(dark) ?? logoSrc(light));
  if (src) return <img className={styles.logo} src={src} alt={name} width={72} height={72} />;
  return (
    <span className={styles.emoji} aria-hidden="true">
      {emoji}
    </span>
  );
}
