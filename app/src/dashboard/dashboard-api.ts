/** Read-only JSON for `loopx status` and scripts: the same model the pages render. */
import { type GoalState, outcomeAccounting, outcomeWords, stateWordsOf } from "@loopx/core";
import type { Store } from "@loopx/store";
import { type CanSee, everyone, readGoal, readOverview } from "./dashboard-data.ts";

export async function goalsJson(store: Store, canSee: CanSee = everyone) {
  const o = await readOverview(store, canSee);
  const gatesOf = (id: string) =>
    o.openGates.filter((g) => g.goal.id === id).map((g) => g.gate.key);
  const stalledOf = (id: string) => o.stalled.find((s) => s.goal.id === id)?.route ?? null;
  return {
    now: o.now.toISOString(),
    goals: o.goals.map((g) => ({
      id: g.id,
      repo: g.repo,
      issueNumber: g.issueNumber,
      title: g.title,
      status: g.status,
      statusReason: g.statusReason,
      nextWakeAt: g.nextWakeAt?.toISOString() ?? null,
      spent: g.spent,
      openGates: gatesOf(g.id),
      stalled: stalledOf(g.id),
    })),
    running: o.running.map((l) => ({
      goalId: l.goalId,
      tick: l.tick,
      todo: l.todo,
      slot: l.slot,
      leaseExpiresAt: l.leaseExpiresAt.toISOString(),
    })),
  };
}

export async function goalJson(
  store: Store,
  goal: { owner: string; repo: string; number: number },
  canSee: CanSee = everyone,
) {
  const id = await store.goalIdByName(goal.owner, goal.repo, goal.number);
  const d = id ? await readGoal(store, id, canSee) : null;
  if (!d) return null;
  const words = stateWordsOf(d.state, d.now);
  return {
    id: d.summary.id,
    repo: d.summary.repo,
    issueNumber: d.summary.issueNumber,
    title: d.summary.title,
    status: d.summary.status,
    route: d.route,
    /** The goal's state in words for people (status stays for scripts). */
    state: d.stateWords,
    reason: d.reason,
    instruction: d.instruction,
    nextWakeAt: d.summary.nextWakeAt?.toISOString() ?? null,
    spent: d.summary.spent,
    /** Delivered for what it cost, and what it took of people; `words` as every surface says it. */
    outcome: outcomeJson(d.state, d.now),
    todos: d.state.todos.map((t) => ({
      key: t.key,
      title: t.title,
      status: t.status,
      state: words(t),
    })),
    gates: d.state.gates.map((g) => ({
      key: g.key,
      status: g.status,
      question: g.question,
      resolvedBy: g.resolvedBy,
    })),
    ticks: d.ticks.map((t) => ({
      number: t.number,
      todo: t.todo,
      outcome: t.outcome,
      usd: t.cost?.usd ?? null,
    })),
  };
}

function outcomeJson(state: GoalState, now: Date) {
  const accounting = outcomeAccounting(state.goal, state.gates, now);
  return { ...accounting, words: outcomeWords(accounting) };
}
