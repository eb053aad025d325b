/**
 * Writing a transition's outcome: only the rows that changed, the events, the outbox.
 * Runs inside the caller's transaction; it never commits or catches.
 */
import { isDeepStrictEqual } from "node:util";
import { type DomainEvent, Effect, EventType, type GoalState } from "@loopx/core";
import { and, eq, getTableColumns, getTableName, inArray, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import {
  evidenceToRow,
  gateToRow,
  handoffToRow,
  noteToRow,
  pullRequestToRow,
  tickToRow,
  todoToRow,
} from "./codec.ts";
import type { Db } from "./db.ts";
import { pipelined } from "./errors.ts";
import { insertJson, upsertTail } from "./json-insert.ts";
import { DUE_UNLESS_LEASED, dueUnlessLeased } from "./outbox.ts";
import * as s from "./schema/index.ts";

/** The insert as plain SQL with its rows as one json parameter (json-insert.ts), or null. */
function viaJson(tx: Db, table: PgTable, rows: Record<string, unknown>[], tail: string) {
  const statement = insertJson(table, rows, tail);
  return statement ? tx.execute(statement) : null;
}

type Collections = Omit<GoalState, "goal">;
type Item<K extends keyof Collections> = Collections[K][number];

/** How one collection of the aggregate is stored: one row per item, in a table of its own. */
interface ChildTable<K extends keyof Collections> {
  table: PgTable & { goalId: PgColumn };
  /** The item's identity across transitions, a property of the item and of its row alike. */
  key: keyof Item<K> & string;
  /** The upsert's conflict target (schema property names). */
  target: string[];
  toRow: (goalId: string, item: Item<K>) => Record<string, unknown>;
  /**
   * Items a transition may remove: one that was loaded and is missing from `after` has its
   * row deleted. Only loaded rows are ever deleted or rewritten (load.ts windows these
   * collections too): an item new to `after` is inserted without ON CONFLICT, so one that
   * collides with a row the window left out fails the statement (see UnloadedRowHit)
   * instead of overwriting it. In the other collections absent is not removed.
   */
  whole?: true;
}

/**
 * Every child table of a goal, in the order their statements are sent. Each batch takes the
 * json path when its rows set the same columns and drizzle's builder otherwise (insertJson
 * decides per batch), so the path is not a property of the table.
 */
const CHILDREN: { [K in keyof Collections]: ChildTable<K> } = {
  todos: { table: s.todos, key: "key", target: ["goalId", "key"], toRow: todoToRow, whole: true },
  gates: { table: s.gates, key: "key", target: ["goalId", "key"], toRow: gateToRow, whole: true },
  ticks: { table: s.ticks, key: "id", target: ["id"], toRow: tickToRow },
  evidence: { table: s.evidence, key: "id", target: ["id"], toRow: evidenceToRow },
  handoffs: { table: s.handoffs, key: "tickId", target: ["goalId", "tickId"], toRow: handoffToRow },
  notes: { table: s.notes, key: "id", target: ["id"], toRow: noteToRow },
  pullRequests: {
    table: s.pullRequests,
    key: "number",
    target: ["goalId", "number"],
    toRow: pullRequestToRow,
    whole: true,
  },
};

/** A child table's SQL pieces, built once: they are on every claim's and transition's path. */
interface Statements {
  /** The json path's ON CONFLICT clause. */
  tail: string;
  /** The builder's conflict target and `SET col = excluded.col` for every column not kept. */
  target: PgColumn[];
  set: Record<string, SQL>;
  /** The column holding the item's key, for deletes. */
  keyColumn: PgColumn;
}

const statementCache = new Map<PgTable, Statements>();

function statementsOf<K extends keyof Collections>(child: ChildTable<K>): Statements {
  const cached = statementCache.get(child.table);
  if (cached) return cached;
  const columns: Record<string, PgColumn> = getTableColumns(child.table);
  const keyColumn = columns[child.key];
  if (!keyColumn) throw new Error(`table ${getTableName(child.table)} has no column ${child.key}`);
  // A conflict leaves the target, the goal and `seq` (insertion order) as they are.
  const keep = [...child.target, "goalId", ...("seq" in columns ? ["seq"] : [])];
  const set: Record<string, SQL> = {};
  for (const [prop, col] of Object.entries(columns)) {
    if (!keep.includes(prop)) set[prop] = sql.raw(`excluded."${col.name}"`);
  }
  const target = child.target.flatMap((p) => columns[p] ?? []);
  const tail = upsertTail(child.table, child.target, keep);
  const made = { tail, target, set, keyColumn };
  statementCache.set(child.table, made);
  return made;
}

const EMPTY: Collections = {
  todos: [],
  gates: [],
  evidence: [],
  ticks: [],
  handoffs: [],
  notes: [],
  pullRequests: [],
};

/** The statements that take one collection from `before` to `after`: upsert, then delete. */
function childWrites<K extends keyof Collections>(
  tx: Db,
  goalId: string,
  name: K,
  before: Collections | null,
  after: GoalState,
): { writes: PromiseLike<unknown>[]; remove: PromiseLike<unknown> | null } {
  const child: ChildTable<K> = CHILDREN[name];
  const pieces = statementsOf(child);
  const old: Item<K>[] = (before ?? EMPTY)[name];
  const now: Item<K>[] = after[name];
  const key = child.key;
  const byKey = new Map<unknown, Item<K>>();
  for (const item of old) byKey.set(item[key], item);
  const rows: Record<string, unknown>[] = [];
  const fresh: Record<string, unknown>[] = [];
  const present = new Set<unknown>();
  for (const item of now) {
    present.add(item[key]);
    const prior = byKey.get(item[key]);
    if (prior === undefined && child.whole) fresh.push(child.toRow(goalId, item));
    else if (!isDeepStrictEqual(prior, item)) rows.push(child.toRow(goalId, item));
  }
  const writes: PromiseLike<unknown>[] = [];
  if (rows.length > 0) {
    writes.push(
      viaJson(tx, child.table, rows, pieces.tail) ??
        tx
          .insert(child.table)
          .values(rows)
          .onConflictDoUpdate({ target: pieces.target, set: pieces.set }),
    );
  }
  if (fresh.length > 0) {
    writes.push(viaJson(tx, child.table, fresh, "") ?? tx.insert(child.table).values(fresh));
  }
  if (!before || !child.whole) return { writes, remove: null };
  // One pass over each side: a Set lookup per key, never a scan of `after` per old item.
  const gone = old.map((item) => item[key]).filter((k) => !present.has(k));
  if (gone.length === 0) return { writes, remove: null };
  const remove = tx
    .delete(child.table)
    .where(and(eq(child.table.goalId, goalId), inArray(pieces.keyColumn, gone)));
  return { writes, remove };
}

export async function writeChildren(
  tx: Db,
  before: Collections | null,
  after: GoalState,
): Promise<void> {
  // Issued together: postgres.js pipelines them on the transaction's connection (one flush,
  // one wait) instead of a round trip each. Order does not matter: the goal row exists, and
  // a delete names only keys `after` no longer holds, so it never meets an upsert's row.
  const upserts: PromiseLike<unknown>[] = [];
  const removes: PromiseLike<unknown>[] = [];
  for (const name of Object.keys(CHILDREN) as (keyof Collections)[]) {
    const { writes, remove } = childWrites(tx, after.goal.id, name, before, after);
    upserts.push(...writes);
    if (remove) removes.push(remove);
  }
  await pipelined([...upserts, ...removes]);
}

export interface EventSource {
  deliveryId?: string | undefined;
  tickId?: string | undefined;
}

export async function appendEvents(
  tx: Db,
  events: DomainEvent[],
  goalId: string,
  versions: { before: number | null; after: number },
  source: EventSource,
): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((e) => ({
    goalId,
    type: EventType.parse(e.type),
    actor: e.actor,
    deliveryId: source.deliveryId ?? null,
    tickId: source.tickId ?? (e.actor.kind === "agent" ? e.actor.tickId : null),
    at: e.at,
    data: e.data,
    versionBefore: versions.before,
    versionAfter: versions.after,
  }));
  await (viaJson(tx, s.events, rows, "") ?? tx.insert(s.events).values(rows));
}

/** Body, status and check runs always render the newest goal version: one row each, moved forward. */
const COALESCED = new Set(["body", "status", "check_runs"]);

/** The coalesced upsert's SET below, as plain SQL for the json insert. */
const COALESCE_TAIL = `ON CONFLICT ("goal_id", "key") DO UPDATE SET "payload" = excluded."payload", "goal_version" = greatest("outbox"."goal_version", excluded."goal_version"), "attempts" = 0, "next_attempt_at" = ${DUE_UNLESS_LEASED}, "done_at" = NULL, "dead_at" = NULL, "last_error" = NULL, "updated_at" = now()`;

export async function enqueueEffects(
  tx: Db,
  effects: Effect[],
  goalId: string,
  goalVersion: number,
): Promise<void> {
  // One statement cannot touch a row twice: the last effect with a key wins within a batch.
  const byKey = new Map<string, Effect>();
  for (const e of effects) byKey.set(e.key, Effect.parse(e));
  const rows = [...byKey.values()].map((e) => ({
    goalId,
    key: e.key,
    kind: e.kind,
    payload: e,
    goalVersion,
  }));
  const coalesced = rows.filter((r) => COALESCED.has(r.kind));
  const once = rows.filter((r) => !COALESCED.has(r.kind));
  // Both statements pipelined: they touch different keys, so their order does not matter.
  const writes: PromiseLike<unknown>[] = [];
  if (coalesced.length > 0) {
    const upsert =
      viaJson(tx, s.outbox, coalesced, COALESCE_TAIL) ??
      tx
        .insert(s.outbox)
        .values(coalesced)
        .onConflictDoUpdate({
          target: [s.outbox.goalId, s.outbox.key],
          // A newer render is a new write: revive the row even if it was done or dead-lettered.
          set: {
            payload: sql`excluded.payload`,
            goalVersion: sql`greatest(${s.outbox.goalVersion}, excluded.goal_version)`,
            attempts: 0,
            nextAttemptAt: dueUnlessLeased,
            doneAt: null,
            deadAt: null,
            lastError: null,
            updatedAt: sql`now()`,
          },
        });
    writes.push(upsert);
  }
  if (once.length > 0) {
    writes.push(
      viaJson(tx, s.outbox, once, "ON CONFLICT DO NOTHING") ??
        tx.insert(s.outbox).values(once).onConflictDoNothing(),
    );
  }
  await pipelined(writes);
}

/** The primary keys of the windowed collections: a new item that hits one met an unloaded row. */
const WINDOWED_KEYS = new Set([
  "todos_goal_id_key_pk",
  "gates_goal_id_key_pk",
  "pull_requests_goal_id_number_pk",
]);

/** Whether a failed commit added an item whose row exists but was outside the loaded window. */
export function hitUnloadedRow(constraint: string | null): boolean {
  return constraint !== null && WINDOWED_KEYS.has(constraint);
}
