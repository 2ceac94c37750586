// The hydration part of `npm run bench` (--only hydration): what ServerHtml (decision 251, hydrate
// less) saves a phone, on the pages that use it. The built server with demo data, Debian's Chromium
// at a phone's size and 4x slower CPU (Lighthouse's mobile setting), no cache; each page loaded as
// built and with every kept region hydrated, alternating, medians. "Every region hydrated" is the
// same build and HTML: an init script takes each region's `id` away as the parser adds it, so
// ServerHtml finds no HTML to keep and React renders and hydrates what is inside, as it would
// without ServerHtml. Figures: the main thread's task and script time from navigation until the
// page is hydrated and idle (Chromium's own counters), the blocking time of its long tasks (their time
// past 50 ms), all and after the first paint (Lighthouse's TBT, measured rather than simulated), and
// the elements React hydrated.
// Prints, never fails on a number.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { median } from "./page-load";
import { phonePage } from "./phone-page.mjs";
import { startBuiltServer } from "./spawn-server.mjs";

const PAGES = ["/", "/tesla", "/platforms", "/privacy"];
type Mode = "as built" | "every region hydrated";
type Sample = {
  taskMs: number;
  scriptMs: number;
  blockingMs: number;
  blockingAfterFcpMs: number;
  hydrated: number;
  elements: number;
};

declare global {
  interface Window {
    __longTasks: { start: number; duration: number }[];
  }
}

async function loadOnce(browser: Browser, url: string, mode: Mode): Promise<Sample> {
  const { page, cdp, close } = await phonePage(browser);
  try {
    await cdp.send("Performance.enable");
    await page.addInitScript((everything: boolean) => {
      window.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
      }).observe({ type: "longtask", buffered: true });
      if (!everything) return;
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.addedNodes)
            if (node instanceof Element && node.hasAttribute("data-server-html")) node.removeAttribute("id");
      }).observe(document, { childList: true, subtree: true });
    }, mode === "every region hydrated");
    await page.goto(url, { waitUntil: "load" });
    await page.waitForFunction(() => {
      const main = document.querySelector("main");
      return main !== null && Object.keys(main).some((key) => key.startsWith("__reactFiber"));
    });
    // The effects after the commit, then a quiet second for what hydration scheduled.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 1_000)));
    const { metrics } = (await cdp.send("Performance.getMetrics")) as { metrics: { name: string; value: number }[] };
    const metric = (name: string) => (metrics.find((m) => m.name === name)?.value ?? Number.NaN) * 1000;
    const inPage = await page.evaluate(() => {
      const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? 0;
      // No named function in here: tsx would wrap it in a helper the page does not have.
      let blockingMs = 0;
      let blockingAfterFcpMs = 0;
      for (const task of window.__longTasks) {
        blockingMs += Math.max(0, task.duration - 50);
        if (task.start >= fcp) blockingAfterFcpMs += Math.max(0, task.duration - 50);
      }
      const all = [...document.body.querySelectorAll("*")];
      const hydrated = all.filter((el) => Object.keys(el).some((key) => key.startsWith("__reactFiber"))).length;
      return { blockingMs, blockingAfterFcpMs, hydrated, elements: all.length };
    });
    return { taskMs: metric("TaskDuration"), scriptMs: metric("ScriptDuration"), ...inPage };
  } finally {
    await close();
  }
}

export async function benchHydration(root: string, runs: number): Promise<void> {
  if (!fs.existsSync(path.join(root, "build", "server.mjs"))) throw new Error("No build: run `npm run build` first.");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-hydration-"));
  // The browser first: a browser that cannot start leaves no server running behind the error.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  const server = await startBuiltServer(`file:${path.join(dir, "hydration.db")}`, dir, { SEED_DEMO: "1" }).catch(
    async (error: unknown) => {
      await browser.close();
      throw error;
    },
  );
  const samples = new Map<string, Sample[]>();
  try {
    for (let round = 0; round < runs; round++)
      for (const pagePath of PAGES) {
        // Alternating, the order turning each round: neither mode always gets the quieter moment.
        const modes: Mode[] = round % 2 ? ["every region hydrated", "as built"] : ["as built", "every region hydrated"];
        for (const mode of modes) {
          const sample = await loadOnce(browser, `http://localhost:${server.port}${pagePath}`, mode);
          const key = `${pagePath}\t${mode}`;
          samples.set(key, [...(samples.get(key) ?? []), sample]);
        }
      }
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const med = (list: Sample[], pick: (s: Sample) => number) => Math.round(median(list.map(pick)));
  const rows = PAGES.map((pagePath) => {
    const built = samples.get(`${pagePath}\tas built`)!;
    const all = samples.get(`${pagePath}\tevery region hydrated`)!;
    const pair = (pick: (s: Sample) => number) => `${med(built, pick)} / ${med(all, pick)}`;
    return {
      page: pagePath,
      "main-thread task ms": pair((s) => s.taskMs),
      "script ms": pair((s) => s.scriptMs),
      "long tasks' blocking ms": pair((s) => s.blockingMs),
      "… after FCP": pair((s) => s.blockingAfterFcpMs),
      "elements hydrated (of all)": `${med(built, (s) => s.hydrated)} / ${med(all, (s) => s.hydrated)} (of ${med(built, (s) => s.elements)})`,
    };
  });
  console.log(
    `\nHydration: ServerHtml's kept regions (decision 251), as built / every region hydrated; medians of ${runs}, Chromium at 4x slower CPU, load average ${os.loadavg()[0]!.toFixed(1)}`,
  );
  console.table(rows);
}
