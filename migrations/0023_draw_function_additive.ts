import { sql, type Kysely } from "kysely";
import { isPostgres } from "./portable";

// The draw in one round trip on PostgreSQL (issue 60, decision 390; additive: decision 369):
// `draw_in_turn` takes the platform's draw lock, then runs the two statements it is given, the lift of ended caps and the
// pick-count-log (one data-modifying CTE), both built by db/repositories/draw.server.ts from the
// rule of rotation.server.ts: the rule is not copied here. A PL/pgSQL function because each of its
// statements takes a fresh snapshot (READ COMMITTED): the pick sees the previous draw, committed
// while this one waited for the lock, and the lift's raised counts. One statement could not: its
// snapshot is taken before any lock inside it, and its sibling CTEs see one snapshot.
// $1 of both statements is the platform (null: every platform), $2 the time (ISO text), $3 the
// served code's new random key. SQLite: nothing (its draw stays a transaction of four statements).
// `any`: migrations are frozen (see 0001).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  if (!isPostgres(db)) return;
  await sql
    .raw(
      `create function draw_in_turn(p_platform integer, p_slug text, p_at text, p_key integer, p_lift text, p_draw text)
      returns setof random_requests language plpgsql as $$
      declare
        v_platform integer := p_platform;
      begin
        if p_slug is not null then
          select id into v_platform from platforms where slug = p_slug;
          if not found then
            return;
          end if;
        end if;
        -- Decision 131's locks (class 1901): a platform's draws one at a time; a draw across every
        -- platform (null) takes the lock all platform draws share, exclusively.
        if v_platform is null then
          perform pg_advisory_xact_lock(1901, 0);
        else
          perform pg_advisory_xact_lock_shared(1901, 0), pg_advisory_xact_lock(1901, v_platform);
        end if;
        execute p_lift using v_platform, p_at, p_key;
        return query execute p_draw using v_platform, p_at, p_key;
      end
      $$`,
    )
    .execute(db);
}

export async function down(db: Db): Promise<void> {
  if (isPostgres(db)) await sql`drop function draw_in_turn(integer, text, text, integer, text, text)`.execute(db);
}
