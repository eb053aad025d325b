import { finishJob, type Todo } from "@loopx/core";
import type { Delivery } from "@loopx/store";
import type { AppDeps } from "../deps.ts";
import { transitionContext } from "../intake/goal-context.ts";
import { applied, ignored, type Outcome } from "../webhooks/outcome.ts";
import type { WorkflowRunCompleted } from "./on-workflow-run.ts";

/**
 * How far GitHub's clock may lag the database's when a run is matched by its creation time
 * (a dispatch GitHub did not name the run of): a run created earlier than that is older work.
 */
const CLOCK_SKEW_MS = 5 * 60_000;

const TODO_BRANCH = /^loopx\/([1-9][0-9]*)-T[1-9][0-9]*$/;

function waitsOn(todo: Todo, e: WorkflowRunCompleted): boolean {
  const rw = todo.resumeWhen;
  const run = e.workflow_run;
  if (rw?.kind !== "job" || rw.branch !== run.head_branch) return false;
  if (run.path !== `.github/workflows/${rw.workflow}`) return false;
  if (rw.runId !== null) return rw.runId === run.id;
  const created = run.created_at?.getTime();
  return created !== undefined && created >= rw.since.getTime() - CLOCK_SKEW_MS;
}

/**
 * The completion of a dispatched run a todo waits on (a listed job): its conclusion and name
 * become evidence and the todo runs again. Null when no todo waits on this run, so the
 * caller goes on to judge it as a tick run.
 */
export async function wakeJobTodo(
  deps: AppDeps,
  delivery: Delivery,
  e: WorkflowRunCompleted,
): Promise<Outcome | null> {
  const run = e.workflow_run;
  if (run.event !== "workflow_dispatch") return null;
  const issue = TODO_BRANCH.exec(run.head_branch ?? "")?.[1];
  if (issue === undefined) return null;
  const goal = await deps.store.findGoalByIssue(e.repository.id, Number(issue));
  const todo = goal?.todos.find((t) => waitsOn(t, e));
  if (!goal || !todo) return null;
  const result = await deps.store.apply(
    goal.goal.id,
    (state, now) =>
      finishJob(
        state,
        {
          todo: todo.key,
          run: {
            id: run.id,
            conclusion: run.conclusion ?? "unknown",
            title: (run.display_title ?? run.name ?? run.path).slice(0, 300),
            url: run.html_url ?? null,
          },
        },
        transitionContext(deps, { kind: "system", reason: "job run completed" }, now),
      ),
    { deliveryId: delivery.deliveryId },
  );
  return result.ok ? applied : ignored(`refused: ${result.refusal.code}`);
}
