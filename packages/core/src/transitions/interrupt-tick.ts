import { sliceCeiling } from "../cost-ledger.ts";
import { commitSummary } from "../evidence-summary.ts";
import type { Cost } from "../schemas/budget.ts";
import type { HarnessResult, Tick, TickInterruption } from "../schemas/tick.ts";
import type { Todo } from "../schemas/todo.ts";
import type { TransitionResult } from "../schemas/transition.ts";
import { commit } from "./commit.ts";
import type { Draft } from "./kit.ts";
import { addEffect, appendEvidence, emit } from "./kit.ts";
import { finishTick } from "./tick-ledger.ts";

export function interruptionOf(tick: Tick): TickInterruption | null {
  return tick.failure === "stopped" || tick.failure === "paused" ? tick.failure : null;
}

/**
 * A stop or a pause ends the lease of the tick running now and cancels its workflow run, in
 * the same transition. The tick stays open for the report job, which GitHub still runs after
 * a cancel (`always()`): its result charges what was measured. A report that never comes
 * (a force-cancel skips `always()`) is charged the cap when the old lease runs out.
 */
export function interruptRunningTicks(d: Draft, how: TickInterruption): void {
  const now = d.ctx.now.getTime();
  for (const tick of d.state.ticks) {
    if (tick.finishedAt !== null || tick.leaseExpiresAt.getTime() <= now) continue;
    const already = interruptionOf(tick);
    // A stop after a pause keeps nothing the paused slice left; a pause never softens a stop.
    if (already === how || already === "stopped") continue;
    tick.failure = how;
    const todo = d.state.todos.find((t) => t.claim?.tickId === tick.id);
    if (todo) todo.claim = null;
    emit(d, "tick.interrupted", {
      tickId: tick.id,
      number: tick.number,
      todo: tick.todo,
      how,
      runId: tick.run?.id ?? null,
    });
    if (already === null && tick.run) {
      addEffect(d, {
        kind: "cancel_run",
        key: `cancel_run:${tick.id}`,
        tickId: tick.id,
        runId: tick.run.id,
        at: d.ctx.now,
      });
    }
    d.status = true;
  }
}

/**
 * What a cancelled slice measured is charged as measured: the slice was cut short by a person,
 * not by a crash, so its own failure (an interrupted harness) does not raise the charge to the
 * cap. Only USD and tokens no proxy counted are still charged at the cap.
 */
function measured(result: HarnessResult, cap: Cost): Cost {
  const unmetered = result.metering === "unmetered";
  return {
    usd: unmetered ? Math.max(result.cost.usd, cap.usd) : result.cost.usd,
    tokens: unmetered ? Math.max(result.cost.tokens, cap.tokens) : result.cost.tokens,
    runnerMinutes: result.cost.runnerMinutes,
  };
}

/**
 * The report of a tick a person interrupted. Stopped: only the cost is recorded, nothing the
 * slice did counts. Paused: its commits are kept as work in progress (the report job pushes
 * them) with its handoff, so a resume picks up where it was cut; nothing completes.
 */
export function settleInterrupted(
  d: Draft,
  tick: Tick,
  todo: Todo,
  how: TickInterruption,
  result: HarnessResult,
): TransitionResult {
  if (how === "paused") {
    for (const c of result.commits) {
      appendEvidence(d, {
        kind: "commit",
        summary: commitSummary(c),
        sha: c.sha,
        todo: todo.key,
        tickId: tick.id,
      });
    }
    d.state.handoffs.push({ ...result.handoff, tickId: tick.id, createdAt: d.ctx.now });
    if (result.commits.length > 0) {
      addEffect(d, { kind: "tick_comment", key: `tick:${tick.id}`, tickId: tick.id });
    }
  }
  tick.sessionId = result.sessionId;
  finishTick(d, tick, "failed", how, measured(result, sliceCeiling(d.state.goal)));
  return commit(d);
}
