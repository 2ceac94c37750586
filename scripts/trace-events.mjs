// Reading a Chromium trace, for scripts/lighthouse.mjs (`--breakdown`, main-thread CPU) and
// scripts/trace-compare.mjs.

/**
 * The page's renderer main thread (the one whose tasks took longest; other renderers are
 * Chromium's own pages): its key (`pid:tid`) and its tasks' wall and thread time in µs. `task` is
 * the tasks' event name: "RunTask" in Lighthouse's categories, "ThreadControllerImpl::RunTask" in
 * the scheduler's.
 */
export function pageThread(events, task = "RunTask") {
  const renderers = new Set(
    events
      .filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain")
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const perThread = new Map();
  for (const e of events) {
    if (e.ph !== "X" || e.name !== task || !renderers.has(`${e.pid}:${e.tid}`)) continue;
    const key = `${e.pid}:${e.tid}`;
    const sums = perThread.get(key) ?? { key, wall: 0, cpu: 0 };
    sums.wall += e.dur ?? 0;
    sums.cpu += e.tdur ?? e.dur ?? 0;
    perThread.set(key, sums);
  }
  return [...perThread.values()].sort((a, b) => b.wall - a.wall)[0];
}

/**
 * Each trace event's own thread time on one thread, in ms by event name: its `tdur` with its
 * children's taken out (an event is a child of the one still open around it).
 */
export function ownTimeByName(events, thread) {
  const timed = events
    .filter((e) => e.ph === "X" && e.tdur !== undefined && `${e.pid}:${e.tid}` === thread)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const open = [];
  const own = new Map();
  for (const e of timed) {
    while (open.length && open[open.length - 1].ts + open[open.length - 1].dur <= e.ts) open.pop();
    const parent = open[open.length - 1];
    own.set(e, e.tdur);
    if (parent && e.ts + e.dur <= parent.ts + parent.dur) own.set(parent, own.get(parent) - e.tdur);
    open.push(e);
  }
  const byName = new Map();
  for (const [e, t] of own) byName.set(e.name, (byName.get(e.name) ?? 0) + t / 1000);
  return byName;
}
