import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import type { SaxesParser as Parser, SaxesTagNS } from "saxes";

// Loaded at the first audit, not at every start-up of the server (decision 241).
const saxes = () => createRequire(import.meta.url)("saxes") as { SaxesParser: typeof Parser };

/**
 * Reads one sitemap or sitemap index as a stream: bytes go in as they arrive, only counters and
 * at most MAX_EXAMPLES offending URLs per finding stay in memory, plus a 20-byte digest per URL
 * seen (duplicates), whatever the URLs' length. No I/O here, so the bench and the tests can feed it
 * directly.
 */

export const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
const MAX_EXAMPLES = 20;
const MAX_LOC_LENGTH = 2048;
const CHANGEFREQS = ["always", "hourly", "daily", "weekly", "monthly", "yearly", "never"] as const;
/** A lastmod this far ahead of the clock is "in the future" (time zones run up to UTC+14). */
const FUTURE_TOLERANCE_MS = 24 * 60 * 60 * 1000;
/** Text kept per element; a longer value is already invalid. */
const MAX_TEXT = MAX_LOC_LENGTH + 64;
/**
 * A sitemap needs three levels. The XML parser's cost grows faster than the square of the nesting
 * depth (200,000 nested elements held it for minutes), so a document deeper than this is refused
 * at the first element past it.
 */
const MAX_DEPTH = 32;
/**
 * Longest markup construct (a tag with its attributes, a comment) from `<` to `>`: the parser reads
 * a tag's attributes all at once when it ends, so one huge tag would hold it in a single step.
 * Checked per slice, so a construct is refused at most one slice past this.
 */
const MAX_MARKUP_CHARS = 16 * 1024;

/** Thrown from the parser's handlers to stop it in the middle of a slice. */
class StopParsing extends Error {}

export class Examples {
  count = 0;
  items: string[] = [];
  add(item: string) {
    this.count++;
    if (this.items.length < MAX_EXAMPLES) this.items.push(item.length > 300 ? `${item.slice(0, 300)}…` : item);
  }
}

export type RootKind = "urlset" | "sitemapindex" | "html" | "other";

export interface DocumentFindings {
  bom: boolean;
  /** Whitespace (or anything) before the XML declaration. */
  leadingJunk: boolean;
  xmlDeclaration: { encoding: string | undefined } | null;
  invalidUtf8: boolean;
  wellFormedError: string | null;
  ended: boolean;
  root: { kind: RootKind; name: string; uri: string } | null;
  /** `<url>` or `<sitemap>` entries. */
  entries: number;
  badLoc: Examples;
  otherHost: Examples;
  duplicates: Examples;
  lastmodInvalid: Examples;
  lastmodFuture: Examples;
  lastmodMissing: number;
  changefreqInvalid: Examples;
  priorityInvalid: Examples;
  blockedByRobots: Examples;
  /** Child sitemap locations of an index, in order, at most `maxChildren`. */
  children: string[];
}

export interface ReaderOptions {
  /** Where the document was finally served from: its URLs must share scheme and host. */
  documentUrl: URL;
  now: Date;
  /** Answers false for a URL robots.txt blocks for the crawler (undefined: no opinion). */
  isAllowed?: (url: string) => boolean | undefined;
  maxChildren: number;
  /**
   * URLs remembered for the duplicate check, at most (the protocol's 50,000 per file): past it the
   * file fails the URL count anyway, and a 50 MB sitemap of short lines holds over a million URLs,
   * whose digests (about 85 bytes each) passed the server's 128 MB heap in one audit.
   */
  maxUrls: number;
}

const W3C_DATETIME =
  /^\d{4}(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01])(?:T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d))?)?)?$/;
const PRIORITY = /^(?:0?\.\d+|0(?:\.\d*)?|1(?:\.0*)?)$/;

/** W3C Datetime (the sitemap protocol's lastmod format), with a real calendar date. */
function parseW3cDatetime(value: string): Date | null {
  if (!W3C_DATETIME.test(value)) return null;
  const date = new Date(value.length === 4 ? `${value}-01-01` : value.length === 7 ? `${value}-01` : value);
  if (Number.isNaN(date.getTime())) return null;
  // 2026-02-30 parses in some engines; check the day survived.
  if (value.length >= 10 && Number(value.slice(8, 10)) !== new Date(`${value.slice(0, 10)}T00:00:00Z`).getUTCDate()) return null;
  return date;
}

function isValidPriority(value: string): boolean {
  return PRIORITY.test(value);
}

export class SitemapDocumentReader {
  readonly findings: DocumentFindings = {
    bom: false,
    leadingJunk: false,
    xmlDeclaration: null,
    invalidUtf8: false,
    wellFormedError: null,
    ended: false,
    root: null,
    entries: 0,
    badLoc: new Examples(),
    otherHost: new Examples(),
    duplicates: new Examples(),
    lastmodInvalid: new Examples(),
    lastmodFuture: new Examples(),
    lastmodMissing: 0,
    changefreqInvalid: new Examples(),
    priorityInvalid: new Examples(),
    blockedByRobots: new Examples(),
    children: [],
  };

  private readonly parser = new (saxes().SaxesParser)({ xmlns: true, position: true });
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });
  /** Digests of the URLs met so far, for the duplicate check: `maxUrls` at most. */
  private readonly seen = new Set<string>();
  private readonly origin: string;
  private readonly futureLimit: number;
  private started = false;
  private failed = false;
  private depth = 0;
  /** Characters since a `<` whose `>` has not come yet (null: none open). */
  private openMarkup: number | null = null;
  /** The element whose text we collect (loc, lastmod, ...) at depth 3. */
  private field: string | null = null;
  private text = "";
  private entry: { loc?: string; lastmod?: string; changefreq?: string; priority?: string } | null = null;

  constructor(private readonly options: ReaderOptions) {
    this.origin = options.documentUrl.origin;
    this.futureLimit = options.now.getTime() + FUTURE_TOLERANCE_MS;
    const p = this.parser;
    p.on("xmldecl", (decl) => {
      this.findings.xmlDeclaration = { encoding: decl.encoding };
    });
    p.on("error", (error) => {
      if (!this.findings.wellFormedError) this.findings.wellFormedError = error.message;
      this.failed = true;
    });
    p.on("opentag", (tag) => this.open(tag as SaxesTagNS));
    p.on("closetag", (tag) => this.close(tag as SaxesTagNS));
    p.on("text", (text) => this.collect(text));
    p.on("cdata", (text) => this.collect(text));
  }

  /** False once the document is known to be broken: the caller may stop reading. */
  /** How many URLs the duplicate check holds (bounded by `maxUrls`). */
  get rememberedUrls(): number {
    return this.seen.size;
  }

  get healthy(): boolean {
    return !this.failed;
  }

  write(chunk: Uint8Array) {
    if (this.failed) return;
    const bytes = chunk;
    if (!this.started) {
      if (bytes.length === 0) return;
      this.started = true;
      if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) this.findings.bom = true;
    }
    let text: string;
    try {
      text = this.decoder.decode(bytes, { stream: true });
    } catch {
      this.findings.invalidUtf8 = true;
      this.fail("invalid UTF-8");
      return;
    }
    this.feed(text);
  }

  private firstText = true;
  private feed(text: string) {
    if (this.firstText && text.length > 0) {
      // The decoder drops a leading BOM; anything else before `<?xml` is junk.
      const lead = /^[\s]+(?=<\?xml[\s?])/.exec(text);
      if (lead) this.findings.leadingJunk = true;
      this.firstText = false;
      // saxes would stop at the misplaced declaration; note it and read the rest.
      if (lead) text = text.slice(lead[0].length);
    }
    if (!this.markupWithinCap(text)) return;
    try {
      this.parser.write(text);
    } catch (error) {
      if (!(error instanceof StopParsing)) throw error;
    }
  }

  private markupWithinCap(text: string): boolean {
    const lastOpen = text.lastIndexOf("<");
    const lastClose = text.lastIndexOf(">");
    if (this.openMarkup !== null && text.indexOf(">") < 0) this.openMarkup += text.length;
    else if (lastOpen > lastClose) this.openMarkup = text.length - lastOpen;
    else if (lastClose >= 0) this.openMarkup = null;
    if (this.openMarkup !== null && this.openMarkup > MAX_MARKUP_CHARS) {
      this.fail(`a tag or comment longer than ${MAX_MARKUP_CHARS} characters`);
      return false;
    }
    return true;
  }

  /** The body ended (`complete`: read to its end, not cut at a cap). */
  end(complete: boolean) {
    if (!complete || this.failed) return;
    try {
      this.decoder.decode();
    } catch {
      this.findings.invalidUtf8 = true;
      this.fail("invalid UTF-8");
      return;
    }
    if (!this.started) {
      this.fail("empty document");
      return;
    }
    try {
      this.parser.close();
    } catch (error) {
      if (!(error instanceof StopParsing)) throw error;
    }
    if (!this.failed) this.findings.ended = true;
  }

  private fail(message: string) {
    if (!this.findings.wellFormedError) this.findings.wellFormedError = message;
    this.failed = true;
  }

  private open(tag: SaxesTagNS) {
    this.depth++;
    if (this.depth > MAX_DEPTH) {
      this.fail(`elements nested deeper than ${MAX_DEPTH} levels`);
      throw new StopParsing();
    }
    if (this.depth === 1) {
      const local = tag.local.toLowerCase();
      const kind: RootKind =
        tag.local === "urlset" ? "urlset" : tag.local === "sitemapindex" ? "sitemapindex" : local === "html" ? "html" : "other";
      this.findings.root = { kind, name: tag.name, uri: tag.uri };
      return;
    }
    const kind = this.findings.root?.kind;
    if (
      this.depth === 2 &&
      ((kind === "urlset" && tag.local === "url") || (kind === "sitemapindex" && tag.local === "sitemap"))
    ) {
      this.entry = {};
      return;
    }
    if (this.depth === 3 && this.entry && tag.uri === this.findings.root?.uri) {
      if (tag.local === "loc" || tag.local === "lastmod" || tag.local === "changefreq" || tag.local === "priority") {
        this.field = tag.local;
        this.text = "";
      }
    }
  }

  private collect(text: string) {
    if (this.field && this.text.length < MAX_TEXT) this.text += text.slice(0, MAX_TEXT - this.text.length);
  }

  private close(_tag: SaxesTagNS) {
    if (this.depth === 3 && this.field && this.entry) {
      (this.entry as Record<string, string>)[this.field] = this.text.trim();
      this.field = null;
    } else if (this.depth === 2 && this.entry) {
      this.checkEntry(this.entry);
      this.entry = null;
    }
    this.depth--;
  }

  private checkEntry(entry: { loc?: string; lastmod?: string; changefreq?: string; priority?: string }) {
    const f = this.findings;
    f.entries++;
    const loc = entry.loc ?? "";
    const label = loc || `#${f.entries}`;
    let url: URL | null = null;
    if (loc && loc.length <= MAX_LOC_LENGTH) {
      try {
        url = new URL(loc);
      } catch {
        url = null;
      }
    }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
      f.badLoc.add(label);
    } else {
      if (url.origin !== this.origin) f.otherHost.add(loc);
      else if (this.options.isAllowed?.(loc) === false) f.blockedByRobots.add(loc);
      if (f.entries <= this.options.maxUrls) {
        const digest = createHash("sha1").update(loc).digest("base64");
        if (this.seen.has(digest)) f.duplicates.add(loc);
        else {
          this.seen.add(digest);
          if (f.root?.kind === "sitemapindex" && f.children.length < this.options.maxChildren) f.children.push(loc);
        }
      }
    }
    if (entry.lastmod === undefined) f.lastmodMissing++;
    else {
      const date = parseW3cDatetime(entry.lastmod);
      if (!date) f.lastmodInvalid.add(`${label} — ${entry.lastmod.slice(0, 60)}`);
      else if (date.getTime() > this.futureLimit) f.lastmodFuture.add(`${label} — ${entry.lastmod}`);
    }
    if (entry.changefreq !== undefined && !(CHANGEFREQS as readonly string[]).includes(entry.changefreq)) {
      f.changefreqInvalid.add(`${label} — ${entry.changefreq.slice(0, 60)}`);
    }
    if (entry.priority !== undefined && !isValidPriority(entry.priority)) {
      f.priorityInvalid.add(`${label} — ${entry.priority.slice(0, 60)}`);
    }
  }
}
