// The constellation game's frame cost, for `npm run bench` (also runs alone: `tsx scripts/bench-game.ts`).
// 1. In Node: one frame's script (stars moved, links found and bucketed, orbs advanced, draw calls issued
//    to a 2D context that records nothing), on a desktop and a phone field.
// 2. In Debian's Chromium against the built server, with the CPU slowed 4x by DevTools: the script time
//    of each animation frame callback and the long tasks (> 50 ms) during 10 s of background
//    animation. Skipped when there is no build or no Chromium. Prints figures; never fails on a number.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { createConstellation, stepConstellation } from "~/features/game/constellation";
import { Renderer } from "~/features/game/renderer";
import { startBuiltServer } from "./spawn-server.mjs";
import { advance, collectAt, startPlaying } from "~/features/game/rules";

const root = path.resolve(import.meta.dirname, "..");
const FRAME_BUDGET_MS = 4;

function seeded(seed: number) {
  let s = seed;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/** A 2D context whose calls cost only the call: what is left is our script. */
function nullContext(): CanvasRenderingContext2D {
  const noop = () => {};
  return new Proxy({} as CanvasRenderingContext2D, {
    get: (_, key) => (key === "canvas" ? null : noop),
    set: () => true,
  });
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

function nodeFrameCost(name: string, width: number, height: number, playing: boolean) {
  const random = seeded(42);
  const field = { width, height };
  const stars = createConstellation(field, random);
  const renderer = new Renderer(nullContext(), { star: "#fff", link: "#fff", orb: "#f0f", orbGlow: "#f0f" });
  const pointer = { x: width / 2, y: height / 2 };
  let game = startPlaying(0);
  const frames = 20_000;
  const times: number[] = [];
  for (let i = 0; i < frames; i++) {
    const now = (i * 16) % 60_000;
    const start = performance.now();
    stepConstellation(stars, 16, field, playing ? null : pointer);
    if (playing) {
      if (now === 0) game = startPlaying(0);
      game = advance(game, now, field, random);
      const orb = game.orbs[0];
      if (orb && i % 20 === 0) game = collectAt(game, now, orb.x, orb.y, field, random);
    }
    renderer.draw(2, width, height, stars, playing ? null : pointer, game, now);
    times.push(performance.now() - start);
  }
  times.splice(0, 2_000); // warm-up
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return {
    run: name,
    "mean µs/frame": Math.round(mean * 1000),
    "p99 µs/frame": Math.round(percentile(times, 0.99) * 1000),
    "x4 (phone-class) mean ms": (mean * 4).toFixed(3),
    budget: `${FRAME_BUDGET_MS} ms`,
    "met?": mean * 4 < FRAME_BUDGET_MS ? "yes" : "NO",
  };
}

/** Wraps requestAnimationFrame so each callback's script time is recorded, and watches long tasks. */
function instrument() {
  const w = window as unknown as { __frames: number[]; __longTasks: number[] };
  w.__frames = [];
  w.__longTasks = [];
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (cb) =>
    raf((t) => {
      const start = performance.now();
      cb(t);
      w.__frames.push(performance.now() - start);
    });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
  }).observe({ type: "longtask", buffered: true });
}

async function browserFrameCost(
  viewport: { width: number; height: number },
  name: string,
  port: number,
  options: { withGame?: boolean; pointer?: boolean } = {},
) {
  const { withGame = true, pointer = true } = options;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  try {
    // Without the game (reduced motion: nothing loads), the same page shows what the machine itself costs.
    const context = await browser.newContext({
      viewport,
      deviceScaleFactor: 2,
      reducedMotion: withGame ? "no-preference" : "reduce",
    });
    const page = await context.newPage();
    await page.addInitScript(instrument);
    // The control runs an empty animation loop: every frame still costs the browser its own work.
    // (A string: tsx would wrap a named function in a helper the page does not have.)
    if (!withGame) await page.addInitScript("requestAnimationFrame(function loop() { requestAnimationFrame(loop); });");
    await page.goto(`http://localhost:${port}/`);
    if (withGame) await page.getByTestId("game-canvas").waitFor({ state: "attached", timeout: 15_000 });
    else await page.waitForTimeout(3_000);
    // A mouse held still on a desktop gathers stars until the game starts: that run keeps its mouse away.
    if (pointer) await page.mouse.move(viewport.width / 2, viewport.height / 2);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __longTasks: number[] };
      w.__frames.length = 0;
      w.__longTasks.length = 0;
    });
    await page.waitForTimeout(10_000);
    const { frames, longTasks } = await page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __longTasks: number[] };
      return { frames: [...w.__frames], longTasks: [...w.__longTasks] };
    });
    // "idle" says the 10 s were background animation, not a game that started.
    const phase = withGame ? await page.getByTestId("game").getAttribute("data-phase") : "-";
    frames.sort((a, b) => a - b);
    const mean = frames.reduce((a, b) => a + b, 0) / Math.max(frames.length, 1);
    return {
      run: name,
      frames: frames.length,
      "mean ms/frame": frames.length ? mean.toFixed(2) : "n/a",
      "p95 ms/frame": frames.length ? percentile(frames, 0.95).toFixed(2) : "n/a",
      "long tasks > 50 ms": longTasks.length,
      "longest task ms": longTasks.length ? Math.round(Math.max(...longTasks)) : 0,
      phase,
      "met?": !withGame ? "-" : mean < FRAME_BUDGET_MS && longTasks.length === 0 ? "yes" : "NO",
    };
  } finally {
    await browser.close();
  }
}

export async function benchGame() {
  console.log(`\nGame frame cost (budget ${FRAME_BUDGET_MS} ms of script per frame on a phone-class CPU)`);
  console.table([
    nodeFrameCost("Node: background, 1280x720, pointer gathering stars", 1280, 720, false),
    nodeFrameCost("Node: playing, 390x844, orbs spawning and collected", 390, 844, true),
  ]);
  const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!fs.existsSync(path.join(root, "build", "server.mjs")) || !fs.existsSync(chromiumPath)) {
    console.log("(Chromium run skipped: needs `npm run build` and Chromium at /usr/bin/chromium or CHROMIUM_PATH)");
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parrainly-bench-game-"));
  const server = await startBuiltServer(`file:${path.join(dir, "game.db")}`, dir);
  try {
    console.table([
      await browserFrameCost(
        { width: 390, height: 844 },
        "Chromium 4x CPU throttle: phone 390x844, device ratio 2 (idle canvas 1), 10 s",
        server.port,
      ),
      await browserFrameCost(
        { width: 1280, height: 720 },
        "Chromium 4x CPU throttle: desktop 1280x720, device ratio 2 (idle canvas 1), no pointer, 10 s",
        server.port,
        { pointer: false },
      ),
      await browserFrameCost({ width: 390, height: 844 }, "control: same phone page, no game, an empty frame loop", server.port, {
        withGame: false,
      }),
    ]);
    console.log(
      "Script time per frame is what the game's animation frame callbacks take (drawing calls included, the\n" +
        "browser's own rasterising not); long tasks cover everything on the main thread, on a machine shared with\n" +
        "whatever else runs, so a long task there is worth a second run before it is believed.",
    );
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  benchGame().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
