/**
 * Writing a transition's outcome: only the rows that changed, the events, the outbox.
 * Runs inside the caller's transaction; it never commits or catches.
 */
import { isDeepStrictEqual } from "node:util";
import { type DomainEvent, Effect, EventType, type GoalState } from "@loopx/core";
import {
  and,
  eq,
  getTableColumns,
  getTableName,
  inArray,
  notInArray,
  type SQL,
  sql,
} from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
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
import * as s from "./schema/index.ts";

/** The insert as plain SQL with its rows as one json parameter (json-insert.ts), or null. */
function viaJson(tx: Db, table: PgTable, rows: Record<string, unknown>[], tail: string) {
  const statement = insertJson(table, rows, tail);
  return statement ? tx.execute(statement) : null;
}

const excludedSets = new Map<string, Record<string, SQL>>();

/**
 * `SET col = excluded.col` for every column but the conflict target and insertion order.
 * Built once per table and `keep`: it is on every claim's and transition's path.
 */
function excludedSet(table: PgTable, keep: string[]): Record<string, SQL> {
  const key = `${getTableName(table)}:${keep.join(",")}`;
  const cached = excludedSets.get(key);
  if (cached) return cached;
  const set: Record<string, SQL> = {};
  for (const [prop, col] of Object.entries(getTableColumns(table))) {
    if (keep.includes(prop)) continue;
    set[prop] = sql.raw(`excluded."${col.name}"`);
  }
  excludedSets.set(key, set);
  return set;
}

/** Items of `after` that are new or differ from `before` (matched by `key`). */
function changed<T>(before: T[], after: T[], key: (t: T) => string): T[] {
  const old = new Map(before.map((t) => [key(t), t]));
  return after.filter((t) => !isDeepStrictEqual(old.get(key(t)), t));
}

type Collections = Omit<GoalState, "goal">;

const EMPTY: Collections = {
  todos: [],
  gates: [],
  evidence: [],
  ticks: [],
  handoffs: [],
  notes: [],
  pullRequests: [],
};

export async function writeChildren(
  tx: Db,
  before: Collections | null,
  after: GoalState,
): Promise<void> {
  const b = before ?? EMPTY;
  const id = after.goal.id;
  // Issued together: postgres.js pipelines them on the transaction's connection (one flush,
  // one wait) instead of a round trip each. Order does not matter: the goal row exists.
  const writes: PromiseLike<unknown>[] = [];

  const todos = changed(b.todos, after.todos, (t) => t.key);
  if (todos.length > 0) {
    const rows = todos.map((t) => todoToRow(id, t));
    const tail = upsertTail(s.todos, ["goalId", "key"], ["goalId", "key"]);
    writes.push(
      viaJson(tx, s.todos, rows, tail) ??
        tx
          .insert(s.todos)
          .values(rows)
          .onConflictDoUpdate({
            target: [s.todos.goalId, s.todos.key],
            set: excludedSet(s.todos, ["goalId", "key"]),
          }),
    );
  }
  const gates = changed(b.gates, after.gates, (g) => g.key);
  if (gates.length > 0) {
    const rows = gates.map((g) => gateToRow(id, g));
    const tail = upsertTail(s.gates, ["goalId", "key"], ["goalId", "key"]);
    writes.push(
      viaJson(tx, s.gates, rows, tail) ??
        tx
          .insert(s.gates)
          .values(rows)
          .onConflictDoUpdate({
            target: [s.gates.goalId, s.gates.key],
            set: excludedSet(s.gates, ["goalId", "key"]),
          }),
    );
  }
  const ticks = changed(b.ticks, after.ticks, (t) => t.id);
  if (ticks.length > 0) {
    const rows = ticks.map((t) => tickToRow(id, t));
    const tail = upsertTail(s.ticks, ["id"], ["id", "goalId"]);
    writes.push(
      viaJson(tx, s.ticks, rows, tail) ??
        tx
          .insert(s.ticks)
          .values(rows)
          .onConflictDoUpdate({ target: s.ticks.id, set: excludedSet(s.ticks, ["id", "goalId"]) }),
    );
  }
  const evidence = changed(b.evidence, after.evidence, (e) => e.id);
  if (evidence.length > 0) {
    const rows = evidence.map((e) => evidenceToRow(id, e));
    const tail = upsertTail(s.evidence, ["id"], ["id", "goalId", "seq"]);
    writes.push(
      viaJson(tx, s.evidence, rows, tail) ??
        tx
          .insert(s.evidence)
          .values(rows)
          .onConflictDoUpdate({
            target: s.evidence.id,
            set: excludedSet(s.evidence, ["id", "goalId", "seq"]),
          }),
    );
  }
  const handoffs = changed(b.handoffs, after.handoffs, (h) => h.tickId);
  if (handoffs.length > 0) {
    const rows = handoffs.map((h) => handoffToRow(id, h));
    const tail = upsertTail(s.handoffs, ["goalId", "tickId"], ["seq", "goalId", "tickId"]);
    writes.push(
      viaJson(tx, s.handoffs, rows, tail) ??
        tx
          .insert(s.handoffs)
          .values(rows)
          .onConflictDoUpdate({
            target: [s.handoffs.goalId, s.handoffs.tickId],
            set: excludedSet(s.handoffs, ["seq", "goalId", "tickId"]),
          }),
    );
  }
  const notes = changed(b.notes, after.notes, (n) => n.id);
  if (notes.length > 0) {
    const rows = notes.map((n) => noteToRow(id, n));
    const tail = upsertTail(s.notes, ["id"], ["id", "goalId", "seq"]);
    writes.push(
      viaJson(tx, s.notes, rows, tail) ??
        tx
          .insert(s.notes)
          .values(rows)
          .onConflictDoUpdate({
            target: s.notes.id,
            set: excludedSet(s.notes, ["id", "goalId", "seq"]),
          }),
    );
  }
  const prs = changed(b.pullRequests, after.pullRequests, (p) => String(p.number));
  if (prs.length > 0) {
    const rows = prs.map((p) => pullRequestToRow(id, p));
    const tail = upsertTail(s.pullRequests, ["goalId", "number"], ["goalId", "number", "seq"]);
    writes.push(
      viaJson(tx, s.pullRequests, rows, tail) ??
        tx
          .insert(s.pullRequests)
          .values(rows)
          .onConflictDoUpdate({
            target: [s.pullRequests.goalId, s.pullRequests.number],
            set: excludedSet(s.pullRequests, ["goalId", "number", "seq"]),
          }),
    );
  }
  // Todos, gates and PRs are loaded whole, so one missing from `after` was removed by the
  // transition. Windowed collections (ticks, evidence, …) are never deleted this way.
  if (before) {
    writes.push(
      deleteMissing(tx, s.todos, s.todos.key, id, b.todos, after.todos, (t) => t.key),
      deleteMissing(tx, s.gates, s.gates.key, id, b.gates, after.gates, (g) => g.key),
    );
    const goneprs = b.pullRequests
      .filter((p) => !after.pullRequests.some((q) => q.number === p.number))
      .map((p) => p.number);
    if (goneprs.length > 0) {
      writes.push(
        tx
          .delete(s.pullRequests)
          .where(and(eq(s.pullRequests.goalId, id), inArray(s.pullRequests.number, goneprs))),
      );
    }
  }
  await pipelined(writes);
}

async function deleteMissing<T>(
  tx: Db,
  table: typeof s.todos | typeof s.gates,
  keyCol: typeof s.todos.key | typeof s.gates.key,
  goalId: string,
  before: T[],
  after: T[],
  key: (t: T) => string,
): Promise<void> {
  const keep = after.map(key);
  if (before.every((t) => keep.includes(key(t)))) return;
  await tx
    .delete(table)
    .where(and(eq(table.goalId, goalId), keep.length > 0 ? notInArray(keyCol, keep) : sql`true`));
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

/** Body and status always render the newest goal version: one row each, moved forward. */
const COALESCED = new Set(["body", "status"]);

/** The coalesced upsert's SET below, as plain SQL for the json insert. */
const COALESCE_TAIL = `ON CONFLICT ("goal_id", "key") DO UPDATE SET "payload" = excluded."payload", "goal_version" = greatest("outbox"."goal_version", excluded."goal_version"), "attempts" = 0, "next_attempt_at" = now(), "done_at" = NULL, "dead_at" = NULL, "last_error" = NULL, "updated_at" = now()`;

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
            nextAttemptAt: sql`now()`,
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
