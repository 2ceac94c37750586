/**
 * How long each kind of visitor data is kept: the one list that the retention jobs read and the
 * privacy page states (decision 321). Change a period here and both follow.
 */
export const RETENTION = {
  /** Raw draws: a draw's result page and its "did it work?" answer live this long. */
  drawDays: 30,
  /** Raw answers: beyond this, only each code's last answersKeptPerCode stay (the pause rule reads them). */
  answerDays: 90,
  answersKeptPerCode: 10,
  /** An answer's address pseudonym is emptied after this, even on the answers a code keeps. */
  answerAddressDays: 90,
  /** A vote (its address and browser pseudonyms) goes after this; the suggestion keeps its count. */
  voteDays: 90,
  /** A decided suggestion goes this long after it was made, with its votes; a pending one waits for the admin. */
  suggestionDays: 365,
  /** A deletion request (the code and the reason given) goes this long after the admin decided it. */
  deletionRequestDays: 90,
  /** A removal request goes this long after the admin marked it done. */
  removalRequestDays: 90,
  /**
   * A deleted code's keyed hash and counts (code_history, rotation rule 5): submitted again within
   * this, it takes its turns back; later, it enters at the level like a new code.
   */
  codeHistoryDays: 365,
  /** Game scores (the leaderboard shows 30 days). */
  scoreDays: 180,
  /** Assistant conversations untouched this long go, with their messages (they quote visitors' text). */
  conversationDays: 30,
  /**
   * A month's pseudonym key is removed once the month is over: from then on no one, us included,
   * can tell which address a pseudonym made with it came from.
   */
  pseudonymKeyMonths: 1,
  /** Hourly database copies kept (BACKUP_KEEP's default), and how many days the host's daily volume snapshots last. */
  backupHours: 48,
  snapshotDays: 14,
} as const;

/** The longest anti-abuse window (the owner page's and the submit form's limits are an hour): its row goes when it ends. */
export const RATE_LIMIT_WINDOW_MINUTES = 60;
