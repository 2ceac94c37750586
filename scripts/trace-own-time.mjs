/**
 * Each trace event's own thread time on one thread, in ms by event name: its `tdur` with its
 * children's taken out (an event is a child of the one still open around it). For
 * scripts/lighthouse.mjs's `--breakdown` and scripts/trace-compare.mjs.
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
