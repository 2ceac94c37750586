/**
 * The result pages of draws just made (decision 212). A draw is a write the visitor asked for: its
 * answer is a 303 to the signed result page, and the code itself is on that page. Under overload
 * that page must not be refused like any other page, or a visitor would lose the sight of a code
 * already drawn (and counted). The draw action notes each draw's token here; admission control
 * lets a page carrying a noted token wait ahead of the other pages.
 *
 * Bounded: a token is kept `ttlMs` (long enough for the redirect and a reload after a Retry-After),
 * at most `maxEntries` at once (the oldest go first); a token only reorders the queue, never adds
 * places, so one that a stranger replays within its minute gains nothing beyond its own page.
 */
export class RecentDraws {
  private readonly noted = new Map<string, number>();
  /** Draws answered whose result page has not come yet (a browser asks for it at once), for `owedMs`. */
  private readonly owed = new Map<string, number>();

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 4_096,
    private readonly owedMs = 2_000,
  ) {}

  /** Notes the token of the result page at `location` (`/{slug}/get-code?draw=<token>`); other addresses are ignored. */
  note(location: string | null, now = Date.now()): void {
    const token = location ? new URL(location, "http://x").searchParams.get("draw") : null;
    if (!token) return;
    this.noted.delete(token);
    this.noted.set(token, now + this.ttlMs);
    this.owed.set(token, now + this.owedMs);
    this.prune(now);
  }

  /** A page with this `draw` parameter has come: its draw's result is no longer owed. */
  arrived(token: unknown): void {
    if (typeof token === "string") this.owed.delete(token);
  }

  /**
   * Draws answered within the last `owedMs` whose result page has not come yet: pages about to join
   * admission control's line. Bounded in time, so that draws never followed (a script) weigh only
   * for a moment.
   */
  owedCount(now = Date.now()): number {
    for (const [token, expires] of this.owed) {
      if (expires > now) break;
      this.owed.delete(token);
    }
    return this.owed.size;
  }

  /** Whether `token` (a page's `draw` parameter) belongs to a draw made within the last `ttlMs`. */
  has(token: unknown, now = Date.now()): boolean {
    if (typeof token !== "string") return false;
    const expires = this.noted.get(token);
    return expires !== undefined && expires > now;
  }

  get size(): number {
    return this.noted.size;
  }

  // Entries are kept in insertion order, so the expired and the oldest are first.
  private prune(now: number) {
    for (const [token, expires] of this.noted) {
      if (expires > now && this.noted.size <= this.maxEntries) break;
      this.noted.delete(token);
    }
    for (const [token, expires] of this.owed) {
      if (expires > now && this.owed.size <= this.maxEntries) break;
      this.owed.delete(token);
    }
  }
}
