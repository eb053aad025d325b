import {
  awaitJob,
  decide,
  type GoalState,
  type HarnessResult,
  refuseJob,
  type TransitionContext,
  type TransitionResult,
  todoBranch,
} from "@loopx/core";
import { checkJobRequest } from "@loopx/github";
import type { RepoFacts } from "../repo-facts.ts";

type Step = (state: GoalState, ctx: TransitionContext) => TransitionResult;

/**
 * The part of a result that names a job: dispatched and waited on when `jobs:` of the
 * default branch's config lists it with these inputs, else refused as evidence with the
 * reason. The rest of the result stands either way. Null when the slice named no job.
 */
export function jobStep(result: HarnessResult, tickId: string, facts: RepoFacts): Step | null {
  const request = result.job;
  if (request === undefined) return null;
  const refused = (reason: string): Step => {
    return (s, c) => refuseJob(s, { todo: result.todo, tickId, reason: reason.slice(0, 450) }, c);
  };
  if (facts.config === null) {
    return refused(
      `job "${request.name}": .github/loopx.yml on the default branch is invalid, so no job is listed`,
    );
  }
  const check = checkJobRequest(facts.config.jobs ?? {}, request);
  if (!check.ok) return refused(check.reason);
  return (s, c) => {
    const waiting = awaitJob(
      s,
      { todo: result.todo, tickId, job: check.job, branch: todoBranch(s, result.todo) },
      c,
    );
    // A chain skips a refused step silently; the slice must learn why nothing was dispatched.
    return waiting.ok ? waiting : refused(waiting.refusal.message)(s, c);
  };
}

/**
 * A chain keeps the wake the result's own commit added; once the todo waits on a job that
 * wake may be moot: kept only when the goal still has something to run.
 */
export function wakeOnlyIfRunnable(result: TransitionResult, now: Date): TransitionResult {
  if (!result.ok) return result;
  const route = decide(result.state, now, "app").route;
  if (route === "run" || route === "replan") return result;
  return { ...result, effects: result.effects.filter((e) => e.kind !== "dispatch") };
}
