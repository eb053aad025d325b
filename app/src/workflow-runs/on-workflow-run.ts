import { endRunTicks, type GoalState, recordHostFailure } from "@loopx/core";
import type { Delivery } from "@loopx/store";
import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { repoName, transitionContext } from "../intake/goal-context.ts";
import { loadRepoConfig } from "../repo-config.ts";
import { DEFAULT_CONFIG } from "../repo-facts.ts";
import { Repository } from "../webhooks/envelope.ts";
import { applied, ignored, type Outcome } from "../webhooks/outcome.ts";
import { wakeJobTodo } from "./wake-job-todo.ts";

/** The parts of `workflow_run.completed` this handler reads. */
export const WorkflowRunCompleted = z.object({
  action: z.literal("completed"),
  installation: z.object({ id: z.number() }),
  repository: Repository,
  workflow_run: z.object({
    id: z.number().int().positive(),
    run_attempt: z.number().int().positive().default(1),
    path: z.string(),
    event: z.string(),
    conclusion: z.string().nullable(),
    display_title: z.string().optional(),
    name: z.string().nullable().optional(),
    html_url: z.url().optional(),
    head_branch: z.string().nullable().optional(),
    created_at: z.coerce.date().optional(),
  }),
});
export type WorkflowRunCompleted = z.infer<typeof WorkflowRunCompleted>;

/** Conclusions that mean the run broke, as opposed to finishing or being cancelled by a person. */
const FAILED = new Set(["failure", "timed_out", "startup_failure"]);
/** Conclusions after which nothing of the run reports any more. */
const ENDED = new Set([...FAILED, "cancelled"]);

/**
 * Which goal a run was for. GitHub's payload carries no dispatch inputs, so: the run the app
 * recorded when it dispatched, else `#<issue>` in the run's title (the tick workflow's
 * `run-name`), else the repository's only active goal.
 */
async function goalOfRun(deps: AppDeps, e: WorkflowRunCompleted): Promise<GoalState | null> {
  const { store } = deps;
  const recorded = await store.goalOfDispatchedRun(e.workflow_run.id);
  if (recorded) return store.loadGoal(recorded);
  const titled = /#([0-9]+)/.exec(e.workflow_run.display_title ?? "")?.[1];
  if (titled) return store.findGoalByIssue(e.repository.id, Number(titled));
  const active = (await store.goalsOfRepo(e.repository.id)).filter((g) => g.status === "active");
  const only = active.length === 1 ? active[0] : undefined;
  return only ? store.loadGoal(only.goalId) : null;
}

/**
 * `workflow_run.completed`: the run of a job a todo waits on wakes that todo. Otherwise, a
 * tick run that ended (failed, timed out or cancelled) while its tick had not reported (its
 * report job's runner was lost, say) ends that tick now rather than when its lease runs out;
 * a tick run that failed before it reached the tick API (bad YAML, a missing secret, never
 * started) becomes `host_failure` evidence on its goal and backs the loop off — never a
 * silent stall. A run that reached the API and reported, or only waited, is left alone.
 */
export async function onWorkflowRun(
  deps: AppDeps,
  delivery: Delivery,
  e: WorkflowRunCompleted,
): Promise<Outcome> {
  const run = e.workflow_run;
  const job = await wakeJobTodo(deps, delivery, e);
  if (job !== null) return job;
  const conclusion = run.conclusion ?? "";
  if (!ENDED.has(conclusion)) return ignored(`run concluded ${run.conclusion}`);
  if (run.event !== "workflow_dispatch" && run.event !== "schedule") {
    return ignored(`a ${run.event} run is not a tick`);
  }
  const { store } = deps;
  const live = await store.goalOfLiveRunTick(run.id, e.repository.id);
  if (live !== null) return endRunTick(deps, delivery, live, run.id, conclusion);
  if (!FAILED.has(conclusion)) return ignored(`run concluded ${run.conclusion}`);
  if ((await store.runHasTick(run.id)) || (await store.runReachedApi(run.id))) {
    return ignored("the run reached the tick API, and its tick reported or only waited");
  }
  const goal = await goalOfRun(deps, e);
  if (!goal) return ignored(`run ${run.id} belongs to no goal LoopX can tell`);
  const port = await deps.readsFor(e.installation.id);
  const config = await loadRepoConfig(port, repoName(e.repository));
  const tickWorkflow = config.ok ? config.config.tickWorkflow : DEFAULT_CONFIG.tickWorkflow;
  if (run.path !== `.github/workflows/${tickWorkflow}`) {
    return ignored(`${run.path} is not the tick workflow`);
  }
  const result = await store.apply(
    goal.goal.id,
    (state, now) =>
      recordHostFailure(
        state,
        {
          summary: `tick workflow run ${run.id} (attempt ${run.run_attempt}) ended ${run.conclusion} before it reached LoopX; check the run's log`,
          url: run.html_url ?? null,
        },
        transitionContext(deps, { kind: "system", reason: "workflow_run failed" }, now),
      ),
    { deliveryId: delivery.deliveryId },
  );
  // The backoff it recorded decides when the goal runs again, not the wait for this run to ask.
  if (result.ok) await store.endDispatchedRun(run.id);
  return result.ok ? applied : ignored(`refused: ${result.refusal.code}`);
}

/** The run's unfinished tick ends at GitHub's word; the backoff it records decides what next. */
async function endRunTick(
  deps: AppDeps,
  delivery: Delivery,
  goalId: string,
  runId: number,
  conclusion: string,
): Promise<Outcome> {
  const result = await deps.store.apply(
    goalId,
    (state, now) =>
      endRunTicks(
        state,
        { runId, conclusion },
        transitionContext(deps, { kind: "system", reason: "workflow_run ended" }, now),
      ),
    { deliveryId: delivery.deliveryId },
  );
  return result.ok ? applied : ignored(`refused: ${result.refusal.code}`);
}
