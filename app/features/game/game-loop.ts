import { createConstellation, fitConstellation, stepConstellation, type Constellation, type Pointer } from "./constellation";
import { FALLBACK_PALETTE, pixelRatio, readPalette, Renderer, watchTheme } from "./renderer";
import {
  advance,
  closeGame,
  collectAt,
  countdownLeft,
  countLinks,
  countTap,
  MOBILE_MEDIA_QUERY,
  IDLE,
  NO_TAPS,
  startCountdown,
  startPlaying,
  timeLeftSeconds,
  type DeviceType,
  type GameState,
  type LinkHold,
  type Phase,
  type TapCounter,
} from "./rules";

/** What the React layer shows; sent only when it changes. */
export interface GameView {
  phase: Phase;
  device: DeviceType;
  score: number;
  secondsLeft: number;
  countdown: number;
  hint: "taps" | "links" | null;
}

export interface LoopEvents {
  view: (view: GameView) => void;
  /** Play began (after the countdown on mobile, at once on desktop): time to ask for a session. */
  playStarted: (device: DeviceType) => void;
  finished: (result: { device: DeviceType; score: number; collectedAt: readonly number[] }) => void;
}

/** Longest step a frame may take: a stalled or hidden tab does not fast-forward the game. */
const MAX_STEP_MS = 100;
const INTERACTIVE = "a, button, input, select, textarea, label, summary, [role='button'], [tabindex]:not([tabindex='-1'])";

/**
 * The frame loop around the pure rules: a game clock that advances only while frames run (so the game
 * pauses with the tab), pointer input, the canvas size (device pixel ratio capped at 2 in play, 1 idle), and pausing
 * when the tab is hidden or the background canvas is off screen.
 */
export class GameLoop {
  private readonly renderer: Renderer;
  /** Made at the first size report (sized below): the stars are spread over the canvas's box. */
  private stars!: Constellation;
  private sized = false;
  /** The idle sky stays still until someone moves a pointer or touches the page (decision 250). */
  private awake = false;
  private game: GameState = IDLE;
  private taps: TapCounter = NO_TAPS;
  private linkHold: LinkHold = null;
  private pointer: Pointer | null = null;
  private pointerIsMouse = false;
  private width = 0;
  private height = 0;
  private dpr = 1;
  private frame = 0;
  private skipFrame = 0;
  private running = false;
  private onScreen = true;
  private gameClock = 0;
  private realAtLastFrame = 0;
  private lastView: GameView | null = null;
  private hint: GameView["hint"] = null;
  private tapHintUntil = 0;
  private orbsShown = "";
  /** The device type a game began on (the window may be resized during it). */
  private playDevice: DeviceType = "desktop";
  private readonly cleanups: Array<() => void> = [];
  /** Below the mobile breakpoint (deviceTypeForWidth's rule, as a media query). */
  private readonly narrow = window.matchMedia(MOBILE_MEDIA_QUERY);

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly events: LoopEvents,
    private readonly clock: () => number = () => performance.now(),
    private readonly random: () => number = Math.random,
  ) {
    const ctx = canvas.getContext("2d", { alpha: true });
    if (!ctx) throw new Error("no 2D canvas");
    // The palette and the size are read in the resize observer's first report, after the browser's
    // own style and layout: reading them here would force both synchronously during the page's load.
    this.renderer = new Renderer(ctx, FALLBACK_PALETTE);
    this.realAtLastFrame = clock();

    const listen = (target: Window | Document, type: string, fn: (e: Event) => void) => {
      target.addEventListener(type, fn, { passive: true });
      this.cleanups.push(() => target.removeEventListener(type, fn));
    };
    listen(window, "pointermove", (e) => {
      this.wake();
      this.onPointerMove(e as PointerEvent);
    });
    listen(window, "pointerdown", (e) => {
      this.wake();
      this.onPointerDown(e as PointerEvent);
    });
    listen(document, "pointerleave", () => (this.pointer = null));
    listen(window, "blur", () => (this.pointer = null));
    listen(document, "visibilitychange", () => this.updateRunning());

    const resize = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1]?.contentRect;
      if (box) this.resized(box.width, box.height);
    });
    resize.observe(canvas);
    this.cleanups.push(() => resize.disconnect());
    const visible = new IntersectionObserver((entries) => {
      this.onScreen = entries.some((e) => e.isIntersecting);
      this.updateRunning();
    });
    visible.observe(canvas);
    this.cleanups.push(() => visible.disconnect());
    this.cleanups.push(
      watchTheme(() => {
        this.renderer.setPalette(readPalette(canvas));
        this.drawStill();
      }),
    );

    // The first view (the idle sky, no hint) is what the component renders before it hears from the
    // loop: kept as the last one, not sent, so starting the sky re-renders nothing (decision 277).
    this.lastView = this.currentView();
  }

  destroy() {
    this.running = false;
    cancelAnimationFrame(this.frame);
    for (const cleanup of this.cleanups) cleanup();
  }

  restart() {
    this.setGame(startCountdown(this.now()));
    this.emitView();
  }

  close() {
    this.setGame(closeGame());
    this.taps = NO_TAPS;
    this.linkHold = null;
    this.hint = null;
    // Scatter the stars again, or the gathered ones would start a new game at once.
    this.stars = createConstellation(this.field(), this.random);
    this.emitView();
  }

  private field() {
    return { width: this.width, height: this.height };
  }

  /** Game clock: real time since the last frame, at most one step's worth. */
  private now(): number {
    return this.gameClock + Math.min(Math.max(this.clock() - this.realAtLastFrame, 0), MAX_STEP_MS);
  }

  /** The canvas's box changed (first report: the loop starts from here). */
  private resized(width: number, height: number) {
    if (!this.sized) this.renderer.setPalette(readPalette(this.canvas));
    this.applySize(width, height);
    if (!this.sized) {
      this.stars = createConstellation(this.field(), this.random);
      this.sized = true;
    }
    this.drawStill();
    this.updateRunning();
  }

  /** On a change of phase (the pixel ratio differs in and out of play): a visitor's action, not the load. */
  private measure() {
    const rect = this.canvas.getBoundingClientRect();
    this.applySize(rect.width, rect.height);
  }

  private applySize(width: number, height: number) {
    this.width = Math.max(1, width);
    this.height = Math.max(1, height);
    this.dpr = pixelRatio(this.game.phase === "idle");
    this.canvas.width = Math.round(this.width * this.dpr);
    this.canvas.height = Math.round(this.height * this.dpr);
    if (this.sized) fitConstellation(this.stars, this.field());
  }

  /** One frame of the sky where the loop is not running (resizing a canvas clears it). */
  private drawStill() {
    if (!this.sized || this.running) return;
    this.renderer.draw(this.dpr, this.width, this.height, this.stars, null, this.game, this.gameClock);
  }

  private wake() {
    if (this.awake) return;
    this.awake = true;
    this.updateRunning();
  }

  private updateRunning() {
    // The idle sky moves once someone is there and while it is on screen; a game in progress fills the screen.
    const shouldRun = this.sized && !document.hidden && (this.game.phase !== "idle" || (this.awake && this.onScreen));
    if (shouldRun === this.running) return;
    this.running = shouldRun;
    if (shouldRun) {
      this.realAtLastFrame = this.clock();
      this.frame = requestAnimationFrame(this.tick);
    } else {
      cancelAnimationFrame(this.frame);
    }
  }

  private readonly tick = () => {
    if (!this.running) return;
    // The idle background moves slowly: every other frame is enough and halves its cost.
    if (this.game.phase === "idle" && this.skipFrame++ % 2 === 1) {
      this.frame = requestAnimationFrame(this.tick);
      return;
    }
    const real = this.clock();
    const step = Math.min(Math.max(real - this.realAtLastFrame, 0), MAX_STEP_MS);
    this.realAtLastFrame = real;
    this.gameClock += step;
    const now = this.gameClock;

    this.setGame(advance(this.game, now, this.field(), this.random));
    const idle = this.game.phase === "idle";
    stepConstellation(this.stars, step, this.field(), idle ? this.pointer : null);
    const near = this.renderer.draw(
      this.dpr,
      this.width,
      this.height,
      this.stars,
      idle && this.pointerIsMouse ? this.pointer : null,
      this.game,
      now,
    );
    if (idle && this.device() === "desktop") this.onLinks(near, now);
    if (idle && this.hint === "taps" && now > this.tapHintUntil) this.hint = null;
    this.showOrbs();
    this.emitView();
    this.frame = requestAnimationFrame(this.tick);
  };

  private device(): DeviceType {
    // A media query, not window.innerWidth: reading the window's width forces a synchronous layout
    // when the page has changed since the last one (as it has when the game mounts).
    return this.narrow.matches ? "mobile" : "desktop";
  }

  /** Every phase change goes through here, so the React layer and the server hear of it once. */
  private setGame(next: GameState) {
    const before = this.game.phase;
    this.game = next;
    if (before === next.phase) return;
    if (before === "idle" || next.phase === "idle") this.measure(); // the pixel ratio differs in and out of play
    if (before === "idle") this.playDevice = this.device();
    if (next.phase === "playing") this.events.playStarted(this.playDevice);
    if (next.phase === "finished") {
      this.events.finished({ device: this.playDevice, score: next.score, collectedAt: next.collectedAt });
    }
    this.updateRunning();
  }

  private onLinks(visibleLinks: number, now: number) {
    const { hold, level } = countLinks(this.linkHold, visibleLinks, now);
    this.linkHold = hold;
    if (level === "start") {
      this.hint = null;
      this.setGame(startPlaying(now));
    } else {
      this.hint = level === "hint" ? "links" : null;
    }
  }

  private toCanvas(e: PointerEvent): Pointer {
    const rect = this.canvas.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  }

  private onPointerMove(e: PointerEvent) {
    this.pointerIsMouse = e.pointerType === "mouse";
    this.pointer = this.toCanvas(e);
    if (this.game.phase === "playing" && this.pointerIsMouse) this.collect(this.pointer);
  }

  private onPointerDown(e: PointerEvent) {
    const at = this.toCanvas(e);
    if (this.game.phase === "playing" || this.game.phase === "countdown") {
      this.collect(at);
      return;
    }
    if (this.game.phase !== "idle" || this.device() !== "mobile") return;
    if (e.target instanceof Element && e.target.closest(INTERACTIVE)) return;
    const now = this.now();
    // Gaps between taps are real time: the game clock stands still while the background is paused.
    const { counter, level } = countTap(this.taps, { x: e.clientX, y: e.clientY, t: this.clock() });
    this.taps = counter;
    if (level === "start") {
      this.hint = null;
      this.setGame(startCountdown(now));
    } else if (level === "hint") {
      this.hint = "taps";
      this.tapHintUntil = now + 5_000;
    }
    this.emitView();
  }

  private collect(at: Pointer) {
    const before = this.game.score;
    this.setGame(collectAt(this.game, this.now(), at.x, at.y, this.field(), this.random));
    if (this.game.score !== before) {
      this.showOrbs();
      this.emitView();
    }
  }

  /** Where the orbs are, on the canvas element, for tests and tools (written only when they change). */
  private showOrbs() {
    const shown = this.game.orbs.map((o) => `${Math.round(o.x)},${Math.round(o.y)}`).join(" ");
    if (shown === this.orbsShown) return;
    this.orbsShown = shown;
    this.canvas.dataset.orbs = shown;
  }

  private currentView(): GameView {
    const now = this.now();
    return {
      phase: this.game.phase,
      device: this.game.phase === "idle" ? this.device() : this.playDevice,
      score: this.game.score,
      secondsLeft: timeLeftSeconds(this.game, now),
      countdown: countdownLeft(this.game, now),
      hint: this.game.phase === "idle" ? this.hint : null,
    };
  }

  private emitView() {
    const view = this.currentView();
    const last = this.lastView;
    if (
      last &&
      last.phase === view.phase &&
      last.device === view.device &&
      last.score === view.score &&
      last.secondsLeft === view.secondsLeft &&
      last.countdown === view.countdown &&
      last.hint === view.hint
    )
      return;
    this.lastView = view;
    this.events.view(view);
  }
}
