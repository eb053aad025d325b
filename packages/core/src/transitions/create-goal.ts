import { INITIAL_BACKOFF } from "../backoff.ts";
import { DEFAULT_TICK_CAP } from "../cost-ledger.ts";
import { DEFAULT_QUOTA } from "../schemas/budget.ts";
import { Goal } from "../schemas/goal.ts";
import type { CreateGoalInput } from "../schemas/inputs.ts";
import { CreateGoalInput as CreateGoalSchema } from "../schemas/inputs.ts";
import type { GoalState } from "../schemas/state.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { commit } from "./commit.ts";
import type { Draft } from "./kit.ts";
import { appendTodo, emit, isRefused, parseInput, refuse } from "./kit.ts";
import { notifyOwners } from "./notify-owners.ts";
import { offerSubIssues } from "./sub-issue-effects.ts";

/**
 * A fresh goal from a labelled issue. It starts at version 0 so that the commit's single
 * bump leaves it at version 1, like every other accepted transition.
 */
export function createGoal(input: CreateGoalInput, ctx: TransitionContext): TransitionResult {
  const parsed = parseInput(CreateGoalSchema, input);
  if (isRefused(parsed)) return parsed;
  const candidate = Goal.safeParse({
    id: parsed.id,
    installationId: parsed.installationId,
    repo: parsed.repo,
    issue: parsed.issue,
    objective: parsed.objective,
    status: parsed.pausedBecause === undefined ? "active" : "paused",
    statusReason: parsed.pausedBecause ?? "",
    owners: parsed.owners,
    harness: parsed.harness,
    validationCommand: parsed.validationCommand ?? null,
    budget: parsed.budget ?? {},
    tickCap: parsed.tickCap ?? DEFAULT_TICK_CAP,
    quota: parsed.quota ?? DEFAULT_QUOTA,
    plan: parsed.plan ?? "auto",
    parallel: parsed.parallel ?? 1,
    version: 0,
    nextWakeAt: ctx.now,
    backoff: { ...INITIAL_BACKOFF },
    counters: { todo: 1, gate: 1, tick: 1 },
    spent: { usd: 0, tokens: 0, runnerMinutes: 0, ticks: 0 },
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  if (!candidate.success) return refuse("invalid_input", candidate.error.message);
  const state: GoalState = {
    goal: candidate.data,
    todos: [],
    gates: [],
    evidence: [],
    ticks: [],
    handoffs: [],
    notes: [],
    pullRequests: [],
  };
  const d: Draft = { state, ctx, events: [], effects: [], checklist: true, status: true };
  emit(d, "goal.created", {
    repo: `${parsed.repo.owner}/${parsed.repo.name}`,
    issue: parsed.issue.number,
    objective: parsed.objective.title,
  });
  if (parsed.pausedBecause !== undefined) {
    emit(d, "goal.paused", { reason: parsed.pausedBecause });
    notifyOwners(d, {
      kind: "config_invalid",
      key: "config:at-start",
      text: parsed.pausedBecause.slice(0, 1000),
    });
  }
  const todos = (parsed.todos ?? []).map((t, i) =>
    appendTodo(d, { ...t, origin: "human", position: i + 1 }),
  );
  offerSubIssues(d, todos);
  return commit(d);
}
