import { type GoalState, isIntakeEffect } from "@loopx/core";
import { GitHubError } from "@loopx/github";
import type { OpsStore, OutboxItem } from "@loopx/store";
import { ContentBudgetExhausted } from "../content-budget.ts";
import type { WriterDeps } from "../deps.ts";
import { createDrainLoop, type DrainLoop } from "../drain-loop.ts";
import { EffectDeferred } from "./cancel-run.ts";
import { performEffect, UnsupportedEffectError } from "./perform-effect.ts";
import { performIntake } from "./perform-intake.ts";

/** Writes that start the loop's next work: a tick's dispatch, or a job's a todo waits on. */
const STARTS_WORK = ["dispatch", "dispatch_job"] as const;

/** A write that failed this often without a retry hint is parked, not retried forever. */
const DEAD_AFTER_PERMANENT_FAILURES = 3;
const BATCH = 20;

export interface OutboxOptions {
  ops: OpsStore;
  /** First retry delay for a failed write (5xx, network); doubles per attempt. */
  retryBaseMs?: number;
  /** The longest a failed write waits between attempts. */
  retryMaxMs?: number;
  /** How long a dispatch for a killed installation waits before the switch is looked at again. */
  killSwitchRecheckMs?: number;
}

/**
 * When to try a failed write again: when GitHub said (retry-after, rate-limit reset),
 * else exponential backoff with ±20 % jitter so replicas do not retry in lockstep.
 */
export function retryDelayMs(
  attempts: number,
  error: unknown,
  opts: { baseMs: number; maxMs: number },
  random: () => number = Math.random,
): number {
  if (error instanceof GitHubError && error.retryAfterSeconds !== null) {
    return Math.max(error.retryAfterSeconds * 1000, 1000);
  }
  const backoff = Math.min(opts.baseMs * 2 ** attempts, opts.maxMs);
  return Math.round(backoff * (0.8 + 0.4 * random()));
}

export interface OutboxWorker extends DrainLoop {
  /** Writes only what starts work (dispatches) now; the rest waits for the next kick. */
  kickDispatches(): void;
}

/**
 * Drains the outbox: every GitHub write happens here, after its transition committed, and
 * renders the newest goal state. 403/404/410 that persist go to a dead letter the status
 * comment shows; 5xx and network failures are retried with backoff; 429 and 403 with a
 * retry hint wait as long as GitHub asked. A write over the installation's content budget
 * is deferred to when a slot frees, without counting as a failed attempt.
 */
export function createOutboxWorker(deps: WriterDeps, opts: OutboxOptions): OutboxWorker {
  const { store, log } = deps;
  const { ops } = opts;
  const backoff = { baseMs: opts.retryBaseMs ?? 30_000, maxMs: opts.retryMaxMs ?? 60 * 60_000 };

  async function one(item: OutboxItem): Promise<void> {
    const state = item.goalId === null ? null : await store.loadGoal(item.goalId);
    const installationId = item.installationId ?? state?.goal.installationId;
    if (installationId === undefined || (item.goalId !== null && !state)) {
      await store.deadLetter(item.id, "the goal no longer exists");
      return;
    }
    // The kill switch stops new work; the projection of what already happened still shows.
    if (item.effect.kind === "dispatch" && (await ops.isInstallationKilled(installationId))) {
      const now = await store.databaseNow();
      const until = new Date(now.getTime() + (opts.killSwitchRecheckMs ?? 10 * 60_000));
      await ops.deferOutbox(
        item.id,
        until,
        `installation ${installationId} is killed (LOOPX_KILL_SWITCH)`,
      );
      return;
    }
    try {
      await perform(item, state, installationId);
      await store.markOutboxDone(item.id, { goalVersion: item.goalVersion });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof ContentBudgetExhausted || error instanceof EffectDeferred) {
        await ops.deferOutbox(item.id, error.retryAt, message);
        return;
      }
      const permanent =
        error instanceof UnsupportedEffectError ||
        (error instanceof GitHubError && error.permanent);
      if (permanent && item.attempts + 1 >= DEAD_AFTER_PERMANENT_FAILURES) {
        log.warn(`outbox ${item.key} for goal ${item.goalId}: dead letter: ${message}`);
        await store.deadLetter(item.id, message);
        // The status comment lists dead letters: re-render it so people see this one.
        if (item.effect.kind !== "status" && item.goalId !== null) {
          await requeueStatus(item.goalId);
        }
        return;
      }
      log.warn(`outbox ${item.key} for goal ${item.goalId}: will retry: ${message}`);
      const now = await store.databaseNow();
      await store.markOutboxFailed(
        item.id,
        message,
        new Date(now.getTime() + retryDelayMs(item.attempts, error, backoff)),
      );
    }
  }

  async function perform(
    item: OutboxItem,
    state: GoalState | null,
    installationId: number,
  ): Promise<void> {
    if (isIntakeEffect(item.effect)) {
      return performIntake(deps, item, item.effect, installationId);
    }
    if (state === null) throw new UnsupportedEffectError(`${item.effect.kind} without a goal`);
    const port = await deps.portFor(installationId);
    await performEffect({ deps, port, state, item, now: await store.databaseNow() });
  }

  /** Makes the goal's status row due again (it renders dead letters from the store). */
  async function requeueStatus(goalId: string): Promise<void> {
    const status = (await store.outboxForGoal(goalId)).find((r) => r.effect.kind === "status");
    if (status && status.deadAt === null) {
      await ops.reviveOutbox(status.id);
    }
  }

  const writes = createDrainLoop(async () => {
    const batch = await store.dueOutbox(BATCH);
    // The status comment renders the newest state: written after the batch's other effects
    // (which often lead to transitions of their own), it is written once for all of them.
    const statusLast = [
      ...batch.filter((i) => i.effect.kind !== "status"),
      ...batch.filter((i) => i.effect.kind === "status"),
    ];
    for (const item of statusLast) await one(item);
    return batch.length;
  }, log);
  // A dispatch starts the loop's next slice: it never waits behind a pass of comment and
  // check-run edits. Both lanes lease their rows, so neither writes one twice; the other
  // lane takes every kind, and drains what the dispatches' own transitions queued.
  const starts = createDrainLoop(async () => {
    const batch = await store.dueOutbox(BATCH, { kinds: STARTS_WORK });
    for (const item of batch) await one(item);
    if (batch.length > 0) writes.kick();
    return batch.length;
  }, log);
  return {
    kick() {
      starts.kick();
      writes.kick();
    },
    kickDispatches: () => starts.kick(),
    async idle() {
      await starts.idle();
      await writes.idle();
    },
    async stop() {
      await Promise.all([starts.stop(), writes.stop()]);
    },
  };
}
