/**
 * How much of a goal's history an aggregate carries: the window's sizes and the predicates
 * that pick each collection's rows through its indexes (load.ts puts them in one statement).
 */
import { WRITER_NOTES_PER_SLICE } from "@loopx/core";
import { type SQL, sql } from "drizzle-orm";

/** How much history an aggregate carries. Open ticks and the quota window are always included. */
export interface LoadWindow {
  recentTicks: number;
  recentEvidence: number;
  recentHandoffs: number;
  /** Delivered notes, newest first; waiting ones are what the next claim takes (noteWindow). */
  recentNotes: number;
  /**
   * Finished todos (done, dropped), gates and pull requests kept beyond those open work
   * needs, newest first; null loads every one (the full aggregate, for audits and tests).
   */
  recentFinished: number | null;
}

export const DEFAULT_WINDOW: LoadWindow = {
  recentTicks: 20,
  recentEvidence: 200,
  recentHandoffs: 10,
  recentNotes: 50,
  recentFinished: 10,
};

/** Every finished item, windowed history as by default: what decisions are compared against. */
export const FULL_WINDOW: LoadWindow = { ...DEFAULT_WINDOW, recentFinished: null };

/**
 * A window size written into the statement rather than bound: the planner prices
 * `LIMIT $n` as 10 % of the rows, so with bound limits PostgreSQL judged the cached generic
 * plan dearer than a fresh one and planned this large statement on every load (~3 ms,
 * several times its execution). Literal limits price the same either way and the plan is
 * cached per connection after the first few loads.
 */
export function literal(n: number): SQL {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new Error(`a load window's sizes are whole numbers ≥ 0 (got ${n}); fix the LoadWindow`);
  }
  return sql.raw(String(n));
}

const FINISHED_TODO = sql.raw(`('done', 'dropped')`);

/**
 * Which todos a windowed aggregate carries (`t` is the row): every unfinished one; the
 * finished ones an unfinished todo waits on or an open PR serves; the lowest and highest
 * position (new todos are placed against them); and the most recently finished (the
 * frontier's "last done", recent history). Each set is read through an index
 * (schema/work.ts), and the rows by primary key (`= ANY (ARRAY(…))`: with `IN (…)` the
 * planner may hash-join against every row of the goal): nothing scans the goal's history.
 */
export function todoWindow(id: SQL, window: LoadWindow): SQL {
  if (window.recentFinished === null) return sql`true`;
  return sql`t.key = ANY (ARRAY(
      SELECT u.key FROM todos u WHERE u.goal_id = ${id} AND u.status NOT IN ${FINISHED_TODO}
      UNION
      SELECT w.resume_when->>'todo' FROM todos w
       WHERE w.goal_id = ${id} AND w.status NOT IN ${FINISHED_TODO}
         AND w.resume_when->>'kind' = 'todo_done'
      UNION
      SELECT m.key FROM pull_requests op
       CROSS JOIN LATERAL (
         SELECT op.todo AS key
         UNION ALL
         SELECT jsonb_array_elements_text(coalesce(op.monitor->'todos', '[]'::jsonb))) m
       WHERE op.goal_id = ${id} AND op.state = 'open'
      UNION
      (SELECT h.key FROM todos h WHERE h.goal_id = ${id} ORDER BY h.position DESC LIMIT 1)
      UNION
      (SELECT l.key FROM todos l WHERE l.goal_id = ${id} ORDER BY l.position LIMIT 1)
      UNION
      (SELECT r.key FROM todos r
        WHERE r.goal_id = ${id} AND r.status IN ${FINISHED_TODO}
        ORDER BY r.completion->>'at' DESC NULLS LAST, r.ordinal DESC
        LIMIT ${literal(window.recentFinished)})))`;
}

/**
 * Which gates (`g`): open and rejected ones (they block scopes), approved ones unless bound
 * to a merged PR (a standing grant, a workflow approval, a gate a push may reopen), of
 * those bound to merged PRs the newest per scope set (what they grant), and the newest.
 * Expired gates grant and block nothing. The newest per scope set is a skip scan of
 * gates_approved_scopes_idx, one probe per scope set; DISTINCT ON sorts every approval.
 */
export function gateWindow(id: SQL, window: LoadWindow): SQL {
  if (window.recentFinished === null) return sql`true`;
  return sql`g.key = ANY (ARRAY(
      SELECT a.key FROM gates a
       WHERE a.goal_id = ${id} AND a.status IN ('open', 'rejected', 'approved')
         AND (a.status <> 'approved' OR a.pr_number IS NULL
              OR NOT EXISTS (SELECT 1 FROM pull_requests mp
                              WHERE mp.goal_id = ${id} AND mp.number = a.pr_number
                                AND mp.state = 'merged'))
      UNION
      (WITH RECURSIVE newest (scopes, key) AS (
         (SELECT b.scopes, b.key FROM gates b
           WHERE b.goal_id = ${id} AND b.status = 'approved'
           ORDER BY b.scopes, b.ordinal DESC LIMIT 1)
         UNION ALL
         SELECT nx.scopes, nx.key FROM newest
          CROSS JOIN LATERAL (
            SELECT b.scopes, b.key FROM gates b
             WHERE b.goal_id = ${id} AND b.status = 'approved' AND b.scopes > newest.scopes
             ORDER BY b.scopes, b.ordinal DESC LIMIT 1) nx)
       SELECT key FROM newest)
      UNION
      (SELECT n.key FROM gates n WHERE n.goal_id = ${id}
        ORDER BY n.ordinal DESC LIMIT ${literal(window.recentFinished)})))`;
}

/**
 * Which notes (`n`): what the next claim delivers (notesForSlice: every waiting outsider's,
 * bounded when it is queued, and the oldest WRITER_NOTES_PER_SLICE writers'), and the most
 * recently delivered (a tick's brief is rebuilt from those). Writers' notes beyond the
 * slice's share stay in the table until a claim reaches them: each set is a range of its own
 * partial index (notes_waiting_idx, notes_delivered_idx), so a thread no slice has read yet
 * costs nothing to load.
 */
export function noteWindow(id: SQL, window: LoadWindow): SQL {
  return sql`n.seq = ANY (ARRAY(
      SELECT o.seq FROM notes o
       WHERE o.goal_id = ${id} AND o.delivered_to IS NULL AND NOT o.trusted
      UNION
      (SELECT w.seq FROM notes w
        WHERE w.goal_id = ${id} AND w.delivered_to IS NULL AND w.trusted
        ORDER BY w.seq LIMIT ${literal(WRITER_NOTES_PER_SLICE)})
      UNION
      (SELECT r.seq FROM notes r
        WHERE r.goal_id = ${id} AND r.delivered_to IS NOT NULL
        ORDER BY r.seq DESC LIMIT ${literal(window.recentNotes)})))`;
}

/** Which pull requests (`p`): open ones, merged ones an unfinished todo waits on, the newest. */
export function pullWindow(id: SQL, window: LoadWindow): SQL {
  if (window.recentFinished === null) return sql`true`;
  return sql`p.number = ANY (ARRAY(
      SELECT o.number FROM pull_requests o WHERE o.goal_id = ${id} AND o.state = 'open'
      UNION
      SELECT (w.resume_when->>'pr')::int FROM todos w
       WHERE w.goal_id = ${id} AND w.status NOT IN ${FINISHED_TODO}
         AND w.resume_when->>'kind' = 'pr_merged'
      UNION
      (SELECT n.number FROM pull_requests n WHERE n.goal_id = ${id}
        ORDER BY n.seq DESC LIMIT ${literal(window.recentFinished)})))`;
}

/** The notes a load carries for `goalId`, as a statement of its own: the bench shows its plan. */
export function notesLookup(goalId: string): SQL {
  const id = sql`${goalId}::uuid`;
  return sql`SELECT n.seq FROM notes n WHERE n.goal_id = ${id} AND ${noteWindow(id, DEFAULT_WINDOW)}`;
}
