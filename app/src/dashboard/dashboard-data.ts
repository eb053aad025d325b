/**
 * What the dashboard shows, read from the store and judged by the kernel's own decide():
 * the pages and the JSON API render the same model, so they cannot disagree.
 */
import {
  decide,
  type Gate,
  type GoalState,
  goalStateWords,
  RECEIPT_EVENT_TYPES,
  type Route,
} from "@loopx/core";
import {
  FULL_WINDOW,
  type GoalEvent,
  type GoalSummary,
  type LiveLease,
  type Store,
  type TickRecord,
} from "@loopx/store";

/** Routes that mean the loop cannot go on by itself. */
const STALLED: readonly Route[] = ["ask_human", "replan", "over_budget"];

export interface OpenGate {
  goal: GoalSummary;
  gate: Gate;
}

export interface Stalled {
  goal: GoalSummary;
  route: Route;
  /** Its state in the kernel's words for people ("paused: budget reached"). */
  words: string;
  reason: string;
  instruction: string;
}

/** An active goal that is not running, due or asking anyone: it waits on CI, a merge, a job. */
export interface Watched {
  goal: GoalSummary;
  /** What it waits for, in the kernel's words ("waiting for #2 to merge"). */
  words: string;
}

export interface Overview {
  now: Date;
  openGates: OpenGate[];
  stalled: Stalled[];
  paused: GoalSummary[];
  running: (LiveLease & { goal: GoalSummary })[];
  scheduled: GoalSummary[];
  watched: Watched[];
  done: GoalSummary[];
  goals: GoalSummary[];
}

/** Whether the person looking may see a repository's goals (readonly: their GitHub access). */
export type CanSee = (repo: string) => Promise<boolean>;
export const everyone: CanSee = async () => true;

async function visibleGoals(store: Store, canSee: CanSee): Promise<GoalSummary[]> {
  const all = await store.listGoalSummaries();
  const seen = new Map<string, boolean>();
  const out: GoalSummary[] = [];
  for (const g of all) {
    if (!seen.has(g.repo)) seen.set(g.repo, await canSee(g.repo));
    if (seen.get(g.repo)) out.push(g);
  }
  return out;
}

export async function readOverview(store: Store, canSee: CanSee = everyone): Promise<Overview> {
  const now = await store.databaseNow();
  const goals = await visibleGoals(store, canSee);
  const byId = new Map(goals.map((g) => [g.id, g]));
  const openGates: OpenGate[] = [];
  const stalled: Stalled[] = [];
  const quiet: Watched[] = [];
  for (const goal of goals.filter((g) => g.status === "active")) {
    const state = await store.loadGoal(goal.id);
    if (!state) continue;
    const gates = state.gates.filter((g) => g.status === "open");
    for (const gate of gates) openGates.push({ goal, gate });
    const d = decide(state, now, "dashboard");
    if (STALLED.includes(d.route)) {
      stalled.push({
        goal,
        route: d.route,
        words: goalStateWords(state, d, now),
        reason: d.reason,
        instruction: d.userInstruction,
      });
    } else if (gates.length === 0 && goal.nextWakeAt === null) {
      quiet.push({ goal, words: goalStateWords(state, d, now) });
    }
  }
  const running = (await store.liveLeases()).flatMap((l) => {
    const goal = byId.get(l.goalId);
    return goal ? [{ ...l, goal }] : [];
  });
  const scheduled = goals
    .filter((g) => g.status === "active" && g.nextWakeAt !== null)
    .sort((a, b) => (a.nextWakeAt?.getTime() ?? 0) - (b.nextWakeAt?.getTime() ?? 0));
  // A goal listed nowhere else still shows, with what it waits on: one waiting for its PR to
  // merge has no gate, no lease and no wake, and would vanish from the page.
  const runningIds = new Set(running.map((l) => l.goalId));
  const watched = quiet.filter((w) => !runningIds.has(w.goal.id));
  return {
    now,
    openGates,
    stalled,
    paused: goals.filter((g) => g.status === "paused"),
    running,
    scheduled,
    watched,
    done: goals.filter((g) => g.status === "done" || g.status === "stopped"),
    goals,
  };
}

/** Receipts a goal page lists: the newest, enough for weeks of decisions. */
const RECEIPTS_SHOWN = 200;

export interface GoalDetail {
  now: Date;
  summary: GoalSummary;
  state: GoalState;
  route: Route;
  /** The goal's state in the kernel's words for people. */
  stateWords: string;
  reason: string;
  instruction: string;
  /** People's acts and the decisions about them (gates, budget, checklist, claims), newest 200. */
  receiptEvents: GoalEvent[];
  ticks: TickRecord[];
}

export async function readGoal(
  store: Store,
  goalId: string,
  canSee: CanSee = everyone,
): Promise<GoalDetail | null> {
  // The goal page lists every todo, finished ones too.
  const state = await store.loadGoal(goalId, FULL_WINDOW);
  if (!state) return null;
  // A goal the person may not see answers exactly like one that does not exist.
  if (!(await canSee(`${state.goal.repo.owner}/${state.goal.repo.name}`))) return null;
  const now = await store.databaseNow();
  const summary = await store.goalSummary(goalId);
  if (!summary) return null;
  const d = decide(state, now, "dashboard");
  return {
    now,
    summary,
    state,
    route: d.route,
    stateWords: goalStateWords(state, d, now),
    reason: d.reason,
    instruction: d.userInstruction,
    receiptEvents: await store.goalEvents(goalId, RECEIPT_EVENT_TYPES, RECEIPTS_SHOWN),
    ticks: await store.goalTicks(goalId),
  };
}
