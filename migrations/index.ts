import type { Migration } from "kysely";
import * as m0001 from "./0001_initial";
import * as m0002 from "./0002_trust";
import * as m0003 from "./0003_assistant";
import * as m0004 from "./0004_game";
import * as m0005 from "./0005_partnership_descriptions";
import * as m0006 from "./0006_rate_limits";
import * as m0009 from "./0009_uploaded_files";
import * as m0010 from "./0010_list_indexes";
import * as m0011 from "./0011_history_rollup";
import * as m0012 from "./0012_offers_and_reasons";
import * as m0013 from "./0013_code_counts";
import * as m0014 from "./0014_platform_deletion";
import * as m0015 from "./0015_rotation";
import * as m0016 from "./0016_stranger_rules";
import * as m0017 from "./0017_privacy";
import * as m0018 from "./0018_assistant_budget";
import * as m0021 from "./0021_ledger";
import * as m0023 from "./0023_draw_function_additive";

/**
 * Every migration, in order. Listed statically so the server bundle carries them
 * (no directory scan at run time). Add new ones at the end; never edit a shipped one.
 */
export const migrations: Record<string, Migration> = {
  "0001_initial": m0001,
  "0002_trust": m0002,
  "0003_assistant": m0003,
  "0004_game": m0004,
  "0005_partnership_descriptions": m0005,
  "0006_rate_limits": m0006,
  "0009_uploaded_files": m0009,
  "0010_list_indexes": m0010,
  "0011_history_rollup": m0011,
  "0012_offers_and_reasons": m0012,
  "0013_code_counts": m0013,
  "0014_platform_deletion": m0014,
  "0015_rotation": m0015,
  "0016_stranger_rules": m0016,
  "0017_privacy": m0017,
  "0018_assistant_budget": m0018,
  "0021_ledger": m0021,
  "0023_draw_function_additive": m0023,
};
