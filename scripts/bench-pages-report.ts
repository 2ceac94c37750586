// The table `npm run bench -- --only pages` prints (scripts/bench-pages.ts): each figure for
// Parrainly beside the stock Remix app, their ratio and the target, from the figures it writes.
import type { ColdSummary } from "./cold-start";
import type { LoadSummary } from "./page-load";

type Bytes = { files: number; gzBytes: number };
type Apps = { parrainly: LoadSummary; uncached: LoadSummary; stock: LoadSummary; stockRouteTable: LoadSummary };
type PerApp = { parrainly: number; stock: number };

/** The figures the table reads, of those the bench writes to its JSON file. */
interface PagesFigures {
  pageBytes: { parrainlyHome: number; parrainlyPlatform: number; stockHome: number; stockPlatform: number };
  home: Apps;
  platform: Apps;
  bare: LoadSummary;
  rssMb: { idle: PerApp; afterLoad: PerApp };
  coldStart: { imageCommandFreshDatabase: ColdSummary; parrainlyExistingDatabase: ColdSummary; stock: ColdSummary };
  jsGzBytes: { parrainlyHome: Bytes; parrainlySubmit: Bytes; stockHome: Bytes; perVisitorPage: Record<string, number> };
  cssGzBytesHome: Bytes;
}

export function printPagesTable(result: PagesFigures) {
  const { idle, afterLoad: after } = result.rssMb;
  const { perVisitorPage: perPage, ...js } = result.jsGzBytes;
  const css = result.cssGzBytesHome;
  const sizes = result.pageBytes;
  // Every visitor page (the cap is per page): the heaviest is printed.
  const heaviest = Object.entries(perPage).sort((a, b) => b[1] - a[1])[0]!;
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const table = [
    ...(["home", "platform"] as const).flatMap((page) => {
      const ours = result[page].parrainly;
      const theirs = result[page].stock;
      const raw = result[page].uncached;
      const tabled = result[page].stockRouteTable;
      return [
        {
          figure: `${page} req/s (min-max)`,
          parrainly: `${ours.rps} (${ours.rpsRange.join("-")})`,
          stock: `${theirs.rps} (${theirs.rpsRange.join("-")})`,
          ratio: ratio(ours.rps, theirs.rps),
          target: ">= 3x (issue 58)",
        },
        {
          figure: `${page} p50 / p99 ms`,
          parrainly: `${ours.p50} / ${ours.p99}`,
          stock: `${theirs.p50} / ${theirs.p99}`,
          ratio: `${ratio(ours.p50, theirs.p50)} / ${ratio(ours.p99, theirs.p99)}`,
          target: "p99 <= 20 ms (idle machine)",
        },
        {
          figure: `${page} uncached req/s, p50 / p99`,
          parrainly: `${raw.rps} (${raw.rpsRange.join("-")}), ${raw.p50} / ${raw.p99}`,
          stock: `${theirs.rps}, ${theirs.p50} / ${theirs.p99}`,
          ratio: ratio(raw.rps, theirs.rps),
          target: ">= 0.70x (issue 58)",
        },
        {
          // Steadier than req/s on a shared machine: the CPU each answer cost the server.
          figure: `${page} uncached CPU ms per request`,
          parrainly: `${raw.cpuMsPerRequest}`,
          stock: `${theirs.cpuMsPerRequest}`,
          ratio: `${ratio(theirs.cpuMsPerRequest, raw.cpuMsPerRequest)} (stock's / ours)`,
          target: ">= 0.70x",
        },
        {
          // Stock with Parrainly's route table and nothing else: what the table alone costs the framework.
          figure: `${page}: stock with our route table, req/s (CPU ms)`,
          parrainly: `uncached ${ratio(raw.rps, tabled.rps)} of it`,
          stock: `${tabled.rps} (${tabled.cpuMsPerRequest})`,
          ratio: ratio(tabled.rps, theirs.rps),
          target: "(the table alone)",
        },
      ];
    }),
    {
      figure: "bare node:http req/s (17 KB)",
      parrainly: `${result.bare.rps}`,
      stock: "",
      ratio: `home at ${((100 * result.home.parrainly.rps) / result.bare.rps).toFixed(1)} % of it`,
      target: "",
    },
    {
      figure: "RSS idle -> after load (MB)",
      parrainly: `${idle.parrainly} -> ${after.parrainly}`,
      stock: `${idle.stock} -> ${after.stock}`,
      ratio: ratio(after.parrainly, after.stock),
      target: "<= 150 MB",
    },
    {
      figure: "cold start, image command, fresh db: ms (CPU ms)",
      parrainly: `${result.coldStart.imageCommandFreshDatabase.ms} (${result.coldStart.imageCommandFreshDatabase.cpuMs})`,
      stock: `${result.coldStart.stock.ms} (${result.coldStart.stock.cpuMs})`,
      ratio: ratio(result.coldStart.imageCommandFreshDatabase.ms, result.coldStart.stock.ms),
      target: "<= 500 ms",
    },
    {
      figure: "cold start, existing db: ms (CPU ms)",
      parrainly: `${result.coldStart.parrainlyExistingDatabase.ms} (${result.coldStart.parrainlyExistingDatabase.cpuMs})`,
      stock: "",
      ratio: ratio(result.coldStart.parrainlyExistingDatabase.ms, result.coldStart.stock.ms),
      target: "",
    },
    {
      figure: "JS gz -9 on / (files)",
      parrainly: `${kb(js.parrainlyHome.gzBytes)} (${js.parrainlyHome.files})`,
      stock: `${kb(js.stockHome.gzBytes)} (${js.stockHome.files})`,
      ratio: ratio(js.parrainlyHome.gzBytes, js.stockHome.gzBytes),
      target: `<= stock's / + 35 KB (${kb(js.stockHome.gzBytes + 35 * 1024)})`,
    },
    {
      figure: "JS gz -9 on /submit (files)",
      parrainly: `${kb(js.parrainlySubmit.gzBytes)} (${js.parrainlySubmit.files})`,
      stock: "",
      ratio: "",
      target: `<= stock's / + 35 KB (${kb(js.stockHome.gzBytes + 35 * 1024)})`,
    },
    {
      figure: "JS gz -9 per visitor page",
      parrainly: Object.entries(perPage)
        .map(([page, bytes]) => `${page} ${(bytes / 1024).toFixed(1)}`)
        .join(", "),
      stock: "",
      ratio: "",
      target: `<= stock's / + 35 KB (${kb(js.stockHome.gzBytes + 35 * 1024)})`,
    },
    {
      figure: "JS gz -9, heaviest visitor page",
      parrainly: `${kb(heaviest[1])} (${heaviest[0]})`,
      stock: "",
      ratio: "",
      target: `<= stock's / + 35 KB (${kb(js.stockHome.gzBytes + 35 * 1024)})`,
    },
    {
      figure: "CSS gz -9 on / (files)",
      parrainly: `${kb(css.gzBytes)} (${css.files})`,
      stock: "",
      ratio: "",
      target: "< 20 KB",
    },
    {
      figure: "page bytes home / platform",
      parrainly: `${sizes.parrainlyHome} / ${sizes.parrainlyPlatform}`,
      stock: `${sizes.stockHome} / ${sizes.stockPlatform}`,
      ratio: "",
      target: "",
    },
  ];
  console.table(table);
}
