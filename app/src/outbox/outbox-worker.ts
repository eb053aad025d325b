import { GitHubError } from "@loopx/github";
import type { OutboxItem } from "@loopx/store";
import type { AppDeps } from "../deps.ts";
import { createDrainLoop, type DrainLoop } from "../drain-loop.ts";
import { performEffect, UnsupportedEffectError } from "./perform-effect.ts";

/** A write that failed this often without a retry hint is parked, not retried forever. */
const DEAD_AFTER_PERMANENT_FAILURES = 3;
const BATCH = 20;

function retryDelayMs(attempts: number, error: unknown): number {
  const hinted = error instanceof GitHubError && error.retryAfterSeconds !== null;
  const backoff = Math.min(60_000 * 2 ** attempts, 60 * 60_000);
  return hinted ? Math.max(error.retryAfterSeconds * 1000, 1000) : backoff;
}

/**
 * Drains the outbox: every GitHub write happens here, after its transition committed, and
 * renders the newest goal state. 403/404/410 that persist go to a dead letter the status
 * comment shows; everything else is retried with backoff (or when GitHub says).
 */
export function createOutboxWorker(deps: AppDeps): DrainLoop {
  const { store, log } = deps;

  async function one(item: OutboxItem): Promise<void> {
    const state = await store.loadGoal(item.goalId);
    if (!state) {
      await store.deadLetter(item.id, "the goal no longer exists");
      return;
    }
    try {
      const port = await deps.portFor(state.goal.installationId);
      await performEffect({ deps, port, state, item, now: await store.dbNow() });
      await store.markOutboxDone(item.id, { goalVersion: item.goalVersion });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const permanent =
        error instanceof UnsupportedEffectError ||
        (error instanceof GitHubError && error.permanent);
      if (permanent && item.attempts + 1 >= DEAD_AFTER_PERMANENT_FAILURES) {
        log.warn(`outbox ${item.key} for goal ${item.goalId}: dead letter: ${message}`);
        await store.deadLetter(item.id, message);
        return;
      }
      log.warn(`outbox ${item.key} for goal ${item.goalId}: will retry: ${message}`);
      const now = await store.dbNow();
      await store.markOutboxFailed(
        item.id,
        message,
        new Date(now.getTime() + retryDelayMs(item.attempts, error)),
      );
    }
  }

  return createDrainLoop(async () => {
    const batch = await store.dueOutbox(BATCH);
    for (const item of batch) await one(item);
    return batch.length;
  }, log);
}
