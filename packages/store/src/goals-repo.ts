/**
 * Goal aggregates: create, load, and apply a kernel transition as ONE transaction
 * (row lock, version compare-and-swap, changed rows, events, outbox, inbox).
 */
import { isDeepStrictEqual } from "node:util";
import type { DomainEvent, Effect, GoalState, Refusal, TransitionResult } from "@loopx/core";
import { and, eq, sql } from "drizzle-orm";
import { txNow } from "./clock.ts";
import { goalToRow } from "./codec.ts";
import { type Db, rowsOf } from "./db.ts";
import { finishDelivery, takeDelivery } from "./delivery-lock.ts";
import { pipelined, RefusalError, refusalForConstraint, uniqueViolation } from "./errors.ts";
import { enqueueIntake } from "./intake-rows.ts";
import { insertJson } from "./json-insert.ts";
import { loadAggregate, lockAndLoad } from "./load.ts";
import { DEFAULT_WINDOW, FULL_WINDOW, type LoadWindow } from "./load-window.ts";
import { appendEvents, enqueueEffects, hitUnloadedRow, writeChildren } from "./persist.ts";
import { movedPastWindow, reachedPastWindow } from "./reached-past-window.ts";
import * as s from "./schema/index.ts";

/** A kernel transition, bound to its input; `now` is the database's transaction clock. */
export type Transition = (state: GoalState, now: Date) => TransitionResult;

export type Applied =
  | { ok: true; state: GoalState; events: DomainEvent[]; effects: Effect[] }
  | { ok: false; refusal: Refusal };

export interface DeliveryOptions {
  /** The inbox delivery that caused this: marked processed in the same transaction. */
  deliveryId?: string | undefined;
  /**
   * What a refusal does to that delivery. A refusal is deterministic (the same command is
   * refused again), so by default it leaves the queue with outcome `refused:<code>`;
   * `leave_pending` keeps it for a retry (e.g. when the caller expects state to change).
   */
  onRefusal?: "mark_processed" | "leave_pending" | undefined;
}

export interface ApplyOptions extends DeliveryOptions {
  expectedVersion?: number | undefined;
  source?: { tickId?: string | undefined } | undefined;
  /**
   * The intake's answer to a refused transition (a reply saying why): enqueued in the
   * refusal's transaction, at the goal's unchanged version.
   */
  onRefused?: ((refusal: Refusal) => Effect[]) | undefined;
  /** What of finished work the transition sees (default DEFAULT_WINDOW). */
  window?: LoadWindow | undefined;
  /**
   * The goal as the caller loaded it (same window) for this request: not read again unless
   * it changed since, so a request loads its goal once.
   */
  loaded?: GoalState | undefined;
}

/** Runs `body` in a transaction; a RefusalError or a known unique violation becomes a refusal. */
export async function inTx<T>(
  db: Db,
  body: (tx: Db) => Promise<T | { ok: false; refusal: Refusal }>,
): Promise<T | { ok: false; refusal: Refusal }> {
  try {
    return await db.transaction((tx) => body(tx));
  } catch (err) {
    return refusalOf(err);
  }
}

function refusalOf(err: unknown): { ok: false; refusal: Refusal } {
  if (err instanceof RefusalError) return { ok: false, refusal: err.refusal };
  const constraint = uniqueViolation(err);
  if (constraint) return { ok: false, refusal: refusalForConstraint(constraint) };
  throw err;
}

/**
 * inTx on a windowed aggregate. A transition that adds an item whose key belongs to a row
 * the window left out (a PR linked again after it merged) fails its insert rather than
 * overwrite that row; it runs once more on the whole aggregate, so it decides as if
 * nothing had been left out.
 */
export async function inWindowedTx<T>(
  db: Db,
  window: LoadWindow,
  body: (tx: Db, window: LoadWindow) => Promise<T | { ok: false; refusal: Refusal }>,
): Promise<T | { ok: false; refusal: Refusal }> {
  try {
    return await db.transaction((tx) => body(tx, window));
  } catch (err) {
    if (window.recentFinished === null || !hitUnloadedRow(uniqueViolation(err))) {
      return refusalOf(err);
    }
    return inTx(db, (tx) => body(tx, FULL_WINDOW));
  }
}

/** A refusal writes nothing — except, if asked, that its delivery has been dealt with. */
async function refuse(tx: Db, refusal: Refusal, opts: DeliveryOptions) {
  if (opts.deliveryId !== undefined && opts.onRefusal !== "leave_pending") {
    await finishDelivery(tx, opts.deliveryId, `refused:${refusal.code}`);
  }
  return { ok: false as const, refusal };
}

type GoalColumns = Omit<ReturnType<typeof goalToRow>, "id">;

/**
 * The goal row's columns this transition changed (the version always does). The row is
 * locked and `before` was read under the lock, so the others already hold these values; a
 * claim rewrites a handful of columns, not every jsonb one, and its message stays small.
 */
function changedGoalColumns(
  before: GoalState["goal"],
  after: GoalState["goal"],
): Partial<GoalColumns> {
  const { id: _b, ...old } = goalToRow(before);
  const { id: _a, ...row } = goalToRow(after);
  const set: Partial<GoalColumns> = {};
  const copy = <K extends keyof GoalColumns>(key: K) => {
    if (!isDeepStrictEqual(old[key], row[key])) set[key] = row[key];
  };
  for (const key of Object.keys(row)) if (key in old) copy(key as keyof GoalColumns);
  return set;
}

/** Writes an accepted transition on a locked goal row. The store owns the version bump. */
export async function commit(
  tx: Db,
  before: GoalState,
  result: Extract<TransitionResult, { ok: true }>,
  opts: ApplyOptions,
): Promise<Applied> {
  const version = before.goal.version + 1;
  if (result.state.goal.id !== before.goal.id) {
    throw new Error(`a transition on goal ${before.goal.id} returned goal ${result.state.goal.id}`);
  }
  const state: GoalState = { ...result.state, goal: { ...result.state.goal, version } };
  const row = changedGoalColumns(before.goal, state.goal);
  const source = { deliveryId: opts.deliveryId, tickId: opts.source?.tickId };
  const versions = { before: before.goal.version, after: version };
  // Everything pipelined on the transaction's connection, the version CAS included: a CAS
  // that matches nothing throws, and any failure rolls the whole transaction back.
  const [updated] = await pipelined([
    tx
      .update(s.goals)
      .set(row)
      .where(and(eq(s.goals.id, before.goal.id), eq(s.goals.version, before.goal.version)))
      .returning({ id: s.goals.id }),
    writeChildren(tx, before, state),
    appendEvents(tx, result.events, state.goal.id, versions, source),
    enqueueEffects(tx, result.effects, state.goal.id, version),
    finishDelivery(tx, opts.deliveryId, "applied"),
  ]);
  if (updated.length === 0) {
    throw new RefusalError({
      code: "stale_version",
      message: `goal ${before.goal.id} changed since version ${before.goal.version}; reload and retry`,
    });
  }
  return { ok: true, state, events: result.events, effects: result.effects };
}

export async function createGoal(
  db: Db,
  build: (now: Date) => TransitionResult,
  opts: DeliveryOptions = {},
): Promise<Applied> {
  return inTx(db, async (tx) => {
    // Clock and delivery lock in one round trip (pipelined on the transaction's connection).
    const [now] = await pipelined([txNow(tx), takeDelivery(tx, opts.deliveryId)]);
    const result = build(now);
    if (!result.ok) return refuse(tx, result.refusal, opts);
    const { goal } = result.state;
    // Goals reference their installation; a goal can arrive before the installation event.
    // The goal row is inserted unless the issue already has one (then nothing is written).
    const row = goalToRow(goal);
    const insertGoal = insertJson(
      s.goals,
      [row],
      `ON CONFLICT ("repo_id", "issue_number") DO NOTHING RETURNING "id"`,
    );
    // Both lazy until pipelined() sends them, in this order (the goal references the row).
    const [, insertedGoal] = await pipelined([
      tx.execute(
        sql`INSERT INTO installations (id) VALUES (${goal.installationId}) ON CONFLICT DO NOTHING`,
      ),
      insertGoal
        ? tx.execute(insertGoal)
        : tx
            .insert(s.goals)
            .values(row)
            .onConflictDoNothing({ target: [s.goals.repoId, s.goals.issueNumber] })
            .returning({ id: s.goals.id }),
    ]);
    const inserted = rowsOf(insertedGoal);
    if (inserted.length === 0) {
      const [existing] = await tx
        .select({ id: s.goals.id })
        .from(s.goals)
        .where(and(eq(s.goals.repoId, goal.repo.id), eq(s.goals.issueNumber, goal.issue.number)));
      return refuse(
        tx,
        {
          code: "duplicate",
          message: `${goal.repo.owner}/${goal.repo.name}#${goal.issue.number} already has goal ${existing?.id ?? "(unknown)"}`,
        },
        opts,
      );
    }
    // The goal row exists now, so the rest goes in one pipelined batch.
    const source = { deliveryId: opts.deliveryId };
    await pipelined([
      writeChildren(tx, null, result.state),
      appendEvents(tx, result.events, goal.id, { before: null, after: goal.version }, source),
      enqueueEffects(tx, result.effects, goal.id, goal.version),
      finishDelivery(tx, opts.deliveryId, "applied"),
    ]);
    return { ok: true, state: result.state, events: result.events, effects: result.effects };
  });
}

export async function apply(
  db: Db,
  goalId: string,
  transition: Transition,
  opts: ApplyOptions = {},
): Promise<Applied> {
  return inWindowedTx(db, opts.window ?? DEFAULT_WINDOW, async (tx, window) => {
    // Delivery lock, goal lock, clock and aggregate: two statements, one round trip.
    const [, loaded] = await pipelined([
      takeDelivery(tx, opts.deliveryId),
      lockAndLoad(tx, sql`id = ${goalId}`, {
        window,
        ...(opts.loaded && window === (opts.window ?? DEFAULT_WINDOW)
          ? { loaded: opts.loaded }
          : {}),
      }),
    ]);
    if (!loaded) return refuse(tx, { code: "not_found", message: `no goal ${goalId}` }, opts);
    const { row, now } = loaded;
    let before = loaded.state;
    if (opts.expectedVersion !== undefined && row.version !== opts.expectedVersion) {
      return refuse(
        tx,
        {
          code: "stale_version",
          message: `goal ${goalId} is at version ${row.version}, not ${opts.expectedVersion}; reload and retry`,
        },
        opts,
      );
    }
    let result = transition(before, now);
    if (window.recentFinished !== null && readsWhole(before, result)) {
      // It named a finished todo, gate or PR the window left out, renumbered the plan, or it
      // ends the goal (whose final report lists everything delivered): decide on the whole
      // aggregate (the goal row is locked already), as a full load would have.
      before = await loadAggregate(tx, row, now, FULL_WINDOW);
      result = transition(before, now);
    }
    if (!result.ok) {
      const answer = opts.onRefused?.(result.refusal) ?? [];
      const target = { installationId: before.goal.installationId, goal: before.goal };
      if (answer.length > 0) await enqueueIntake(tx, answer, target);
      return refuse(tx, result.refusal, opts);
    }
    return commit(tx, before, result, opts);
  });
}

function readsWhole(before: GoalState, result: TransitionResult): boolean {
  return reachedPastWindow(result) || movedPastWindow(before, result) || finishes(before, result);
}

/** The transition moves the goal to done. */
function finishes(before: GoalState, result: TransitionResult): boolean {
  return result.ok && before.goal.status !== "done" && result.state.goal.status === "done";
}
