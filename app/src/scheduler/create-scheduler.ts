import type { AppDeps } from "../deps.ts";
import { reconcilePulls } from "../pulls/monitor-pull.ts";
import { createRepoFactsCache } from "../repo-facts.ts";
import { dispatchDue } from "./dispatch-due.ts";
import { sendDueDigests } from "./send-due-digests.ts";
import { sweepExpiredLeases } from "./sweep-expired-leases.ts";

export interface SchedulerOptions {
  /** How often a pass runs (default 15 s): an approval's dispatch goes out at once anyway. */
  intervalMs?: number;
  /** Due goals dispatched per pass (default 20). */
  batch?: number;
  /**
   * Goals are dispatched once due for this long (default 60 s): one that a transition made
   * due was dispatched by that transition's own outbox effect.
   */
  graceMs?: number;
  /** A goal dispatched for the same wake instant is retried after this (default 15 min). */
  redispatchMs?: number;
  /** How long a repository's default branch and config are reused (default 5 min). */
  repoFactsTtlMs?: number;
  /** Used OIDC token ids are kept this long past their expiry (default 24 h). */
  usedTokenRetentionHours?: number;
  /**
   * Linked PRs are read again this often (default 30 min): the PR monitor's backstop for
   * webhooks that never came. The first read is one interval after start.
   */
  pullReconcileMs?: number;
  /** Called when a pass committed transitions (they queued GitHub writes): `app.outbox.kick`. */
  onCommitted?: () => void;
}

export interface SchedulerPass {
  expired: number;
  /** `owner/name#issue` of each goal whose tick was dispatched. */
  dispatched: string[];
  pruned: number;
  /** Goals whose digest was looked at (posted, found unchanged, or not due yet). */
  digests: number;
}

export interface Scheduler {
  start(): void;
  stop(): Promise<void>;
  /** One pass now (tests, and the timer). Passes never overlap. */
  tick(): Promise<SchedulerPass>;
}

/**
 * The app's own wake loop, safe on every replica: expired leases are swept (host_failure,
 * backoff), due goals are claimed with SKIP LOCKED and their tick dispatched, so the cron
 * backstop rarely finds anything to do. Old used-token rows are pruned on the way.
 */
export function createScheduler(deps: AppDeps, options: SchedulerOptions = {}): Scheduler {
  const facts = createRepoFactsCache(deps, options.repoFactsTtlMs ?? 5 * 60_000);
  const retentionMs = (options.usedTokenRetentionHours ?? 24) * 3_600_000;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<SchedulerPass> | null = null;

  const pullEveryMs = options.pullReconcileMs ?? 30 * 60_000;
  // On the database clock, which judges every lease and wake: the backstop's cadence is time
  // the goals live in, so a clock moved on for them (a replay, the bench) moves it too.
  let pullsReadAt: number | null = null;
  async function reconcilePullsWhenDue(): Promise<void> {
    const now = (await deps.store.databaseNow()).getTime();
    pullsReadAt ??= now;
    if (now - pullsReadAt < pullEveryMs) return;
    pullsReadAt = now;
    const changed = await reconcilePulls(deps, await deps.store.goalsWatchingPulls());
    if (changed > 0) options.onCommitted?.();
  }

  async function pass(): Promise<SchedulerPass> {
    const expired = await sweepExpiredLeases(deps);
    if (expired > 0) options.onCommitted?.();
    const dispatched = await dispatchDue(deps, facts, {
      limit: options.batch ?? 20,
      redispatchMs: options.redispatchMs,
      graceMs: options.graceMs ?? 60_000,
    });
    if (dispatched.length > 0) options.onCommitted?.();
    const pruned = await deps.store.pruneUsedTokens(retentionMs);
    const digests = await sendDueDigests(deps, facts);
    if (digests > 0) options.onCommitted?.();
    await reconcilePullsWhenDue();
    return {
      expired,
      dispatched: dispatched.map((g) => `${g.owner}/${g.name}#${g.issueNumber}`),
      pruned,
      digests,
    };
  }

  function tick(): Promise<SchedulerPass> {
    running ??= pass().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    start() {
      if (timer) return;
      timer = setInterval(() => {
        tick().catch((error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          deps.log.error(`scheduler pass failed: ${message}`);
        });
      }, options.intervalMs ?? 15_000);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => {});
    },
    tick,
  };
}
