import { forEachLink, type Constellation, type Pointer } from "./constellation";
import { RULES, type GameState } from "./rules";

/**
 * The thin drawing layer: what the rules and the constellation say, painted on a 2D canvas. Links go
 * in four opacity buckets, each stroked as one path, so a frame issues a handful of draw calls.
 */
const BUCKETS = 4;
const MAX_SEGMENTS = 3_200; // 80 particles: at most 3 160 pairs

export interface Palette {
  star: string;
  link: string;
  orb: string;
  orbGlow: string;
}

const DPR_CAP = 2;
/**
 * The idle sky is a faint decoration under the page: drawn at one pixel per CSS pixel. Where the
 * canvas is not GPU-backed, the browser rasterises it on the main thread when the frame is committed,
 * at a cost that follows the pixel count: at ratio 2 a phone-class CPU spent 50-110 ms per commit
 * there, long tasks that ratio 1 removes. A game in progress gets the sharp canvas (ratio up to 2).
 */
const IDLE_DPR_CAP = 1;

/** The canvas's pixels per CSS pixel: one for the idle sky, the screen's (at most 2) in a game. */
export function pixelRatio(idle: boolean): number {
  return Math.min(window.devicePixelRatio || 1, idle ? IDLE_DPR_CAP : DPR_CAP);
}

/** The colours until the canvas's own style is read (after the browser's first layout). */
export const FALLBACK_PALETTE: Palette = { star: "#c1cad8", link: "#c1cad8", orb: "#f472b6", orbGlow: "#a78bfa" };

/** The colours the stylesheet gives the canvas (its colour, `--orb`, `--orb-glow`). */
export function readPalette(canvas: HTMLCanvasElement): Palette {
  const style = getComputedStyle(canvas);
  return {
    star: style.color || FALLBACK_PALETTE.star,
    link: style.color || FALLBACK_PALETTE.link,
    orb: style.getPropertyValue("--orb").trim() || FALLBACK_PALETTE.orb,
    orbGlow: style.getPropertyValue("--orb-glow").trim() || FALLBACK_PALETTE.orbGlow,
  };
}

/** Calls `repaint` when the theme changes (the site's toggle or the system's scheme); answers the cleanup. */
export function watchTheme(repaint: () => void): () => void {
  const scheme = window.matchMedia("(prefers-color-scheme: dark)");
  const themeObserver = new MutationObserver(repaint);
  themeObserver.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  scheme.addEventListener("change", repaint);
  return () => {
    themeObserver.disconnect();
    scheme.removeEventListener("change", repaint);
  };
}

export class Renderer {
  private readonly segments = Array.from({ length: BUCKETS }, () => new Float32Array(MAX_SEGMENTS * 4));
  private readonly counts = new Uint16Array(BUCKETS);

  constructor(
    private readonly ctx: CanvasRenderingContext2D,
    private palette: Palette,
  ) {}

  setPalette(palette: Palette) {
    this.palette = palette;
  }

  /** Draws one frame; returns how many links are visible at once around the pointer. */
  draw(
    dpr: number,
    width: number,
    height: number,
    stars: Constellation,
    pointer: Pointer | null,
    game: GameState,
    gameNow: number,
  ): number {
    const { ctx, palette, counts, segments } = this;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);

    counts.fill(0);
    const near = forEachLink(stars, pointer, (ax, ay, bx, by, closeness) => {
      const bucket = Math.min(BUCKETS - 1, Math.floor(closeness * BUCKETS));
      const o = counts[bucket]! * 4;
      const s = segments[bucket]!;
      s[o] = ax;
      s[o + 1] = ay;
      s[o + 2] = bx;
      s[o + 3] = by;
      counts[bucket]!++;
    });
    ctx.strokeStyle = palette.link;
    ctx.lineWidth = 1;
    for (let b = 0; b < BUCKETS; b++) {
      const n = counts[b]!;
      if (n === 0) continue;
      ctx.globalAlpha = 0.12 + (0.5 * (b + 1)) / BUCKETS;
      ctx.beginPath();
      const s = segments[b]!;
      for (let i = 0; i < n * 4; i += 4) {
        ctx.moveTo(s[i]!, s[i + 1]!);
        ctx.lineTo(s[i + 2]!, s[i + 3]!);
      }
      ctx.stroke();
    }
    ctx.globalAlpha = 0.9;
    ctx.fillStyle = palette.star;
    for (let i = 0; i < stars.count; i++) ctx.fillRect(stars.data[i * 4]! - 1, stars.data[i * 4 + 1]! - 1, 2, 2);

    if (game.phase === "playing") {
      const t = gameNow - game.phaseStartedAt;
      for (const orb of game.orbs) {
        const life = Math.max(0, 1 - (t - orb.bornAt) / RULES.orbLifetimeMs);
        ctx.globalAlpha = 0.25 + 0.35 * life;
        ctx.fillStyle = palette.orbGlow;
        ctx.beginPath();
        ctx.arc(orb.x, orb.y, RULES.orbSize * 2.2, 0, Math.PI * 2);
        ctx.fill();
        ctx.globalAlpha = 0.6 + 0.4 * life;
        ctx.fillStyle = palette.orb;
        ctx.beginPath();
        ctx.arc(orb.x, orb.y, RULES.orbSize, 0, Math.PI * 2);
        ctx.fill();
      }
    }
    ctx.globalAlpha = 1;
    return near;
  }
}
