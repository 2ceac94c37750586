import fs from "node:fs";
import { describeFailure, folderSource, siteSource, verifyLedger } from "./ledger-verify";

/**
 * npm run fairness:verify -- <site URL or folder> [--platform slug] [--from YYYY-MM-DD]
 * Checks the public ledger (docs/ledger.md): exit 0 and what was checked, or exit 1 naming the first
 * day, line and reason that fails; exit 2 on bad arguments.
 */
const usage = "usage: npm run fairness:verify -- <site URL or folder> [--platform slug] [--from YYYY-MM-DD]";

function parseArgs(argv: string[]): { target: string; platform?: string; from?: string } | string {
  let target: string | undefined;
  let platform: string | undefined;
  let from: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--platform" || arg === "--from") {
      const value = argv[++i];
      if (!value) return `${arg} needs a value`;
      if (arg === "--platform") platform = value;
      else if (/^\d{4}-\d{2}-\d{2}$/.test(value)) from = value;
      else return `--from takes a day written YYYY-MM-DD, not ${value}`;
    } else if (arg.startsWith("--")) return `unknown option ${arg}`;
    else if (target) return `one target only (got ${target} and ${arg})`;
    else target = arg;
  }
  if (!target) return "no target given";
  return { target, platform, from };
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (typeof args === "string") {
    console.error(`${args}\n${usage}`);
    return 2;
  }
  const isUrl = /^https?:\/\//i.test(args.target);
  if (!isUrl && !fs.existsSync(args.target)) {
    console.error(`${args.target} is neither an http(s) URL nor a folder\n${usage}`);
    return 2;
  }
  const source = isUrl ? siteSource(args.target) : folderSource(args.target);
  console.log(
    `Verifying the ledger of ${source.describe}${args.platform ? `, platform ${args.platform}` : ""}${args.from ? `, from ${args.from}` : ""}`,
  );
  let result;
  try {
    result = await verifyLedger(source, { platform: args.platform, from: args.from });
  } catch (error) {
    console.error(`FAILED: ${(error as Error).message}`);
    return 1;
  }
  for (const r of result.reports) {
    if (r.days === 0) continue;
    console.log(
      `${r.platform}: ${r.days} day(s) ${r.first} to ${r.last}, ${r.events} events, ${r.draws} draws replayed` +
        (r.head ? `, head ${r.head}` : ""),
    );
  }
  if (!result.ok) {
    console.error(describeFailure(result.failure));
    return 1;
  }
  console.log(
    "OK: hash chain intact, every day's start state follows from the day before, every draw served a least-served code in the rotation.",
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`FAILED: ${(error as Error).message}`);
    process.exit(1);
  },
);
