import { type Effect, type GoalState, recordBranchInBase, trackPullRequest } from "@loopx/core";
import { type GitHubPort, renderPrHandoff, renderPullBody, renderPullTitle } from "@loopx/github";
import type { AppDeps } from "../deps.ts";
import { routeReviewers } from "./route-reviewers.ts";

type OpenPull = Extract<Effect, { kind: "open_pull_request" }>;

/**
 * Performs `open_pull_request`: the todo branch's PR, opened with the app's own identity (so
 * the repository's CI runs on it), or — when the app already has one open for that head —
 * updated in place; never a second one. Then the goal tracks it (trackPullRequest), so the
 * status comment lists it and the PR monitor follows it. A PR someone else opened on a LoopX
 * branch is not adopted: it joins only through `/loopx link` by a writer. GitHub refusing the
 * PR because the branch is already in the base ends the write: the todo is settled from it.
 */
export async function openPullRequest(
  deps: AppDeps,
  port: GitHubPort,
  state: GoalState,
  effect: OpenPull,
): Promise<void> {
  // A monitor todo pushes its PR's branch: the PR keeps describing the todo it was opened for.
  const tracked = state.pullRequests.find((p) => p.headRef === effect.branch && p.todo !== null);
  const todo = state.todos.find((t) => t.key === (tracked?.todo ?? effect.todo));
  if (!todo || state.goal.status === "done" || state.goal.status === "stopped") return;
  if (!tracked && (todo.status === "done" || todo.status === "dropped")) {
    // Settled before its branch had a PR: a PR now would only make it not done again.
    deps.log.info(`${todo.key} is ${todo.status}; ${effect.branch} gets no pull request.`);
    return;
  }
  const repo = { owner: state.goal.repo.owner, repo: state.goal.repo.name };
  const bot = await port.botLogin();
  const open = await port.findPullsByHead(repo, effect.branch);
  const own = open.find((p) => p.author === bot);
  const title = renderPullTitle(todo);
  const body = renderPullBody(state, todo);
  let pull = own;
  let created = false;
  if (pull) {
    if (pull.body !== body) await port.updatePull(repo, pull.number, { title, body });
  } else if (open.length > 0) {
    deps.log.info(
      `${effect.branch} already has #${open[0]?.number} by someone else; LoopX does not adopt it (use /loopx link).`,
    );
    return;
  } else {
    const base = await port.defaultBranch(repo);
    const made = await port.createPull(repo, { title, head: effect.branch, base, body });
    if ("nothingToPull" in made) return recordInBase(deps, state, todo.key, effect, base);
    pull = made;
    created = true;
  }
  const recorded = await deps.store.apply(state.goal.id, (s, now) =>
    trackPullRequest(
      s,
      { number: pull.number, todo: todo.key, headRef: effect.branch, headSha: pull.headSha },
      { actor: { kind: "app" }, now, newId: deps.newId },
    ),
  );
  // Already tracked at this head, or the goal finished meanwhile: nothing to retry.
  if (!recorded.ok) deps.log.info(`#${pull.number}: ${recorded.refusal.message}`);
  const latest = recorded.ok ? recorded.state : state;
  const pr = latest.pullRequests.find((p) => p.number === pull.number);
  if (pr) {
    await port.upsertComment(
      { ...repo, number: pull.number },
      `handoff:${state.goal.id}:${pull.number}`,
      renderPrHandoff(latest, pr),
      null,
    );
  }
  if (created) await routeReviewers(port, repo, latest, pull);
}

/**
 * GitHub refused the PR because the branch's head is already in the base: not a write to
 * retry but what became of the work. The todo waiting for that PR is done with it.
 */
async function recordInBase(
  deps: AppDeps,
  state: GoalState,
  todo: string,
  effect: OpenPull,
  base: string,
): Promise<void> {
  const input = { todo, branch: effect.branch, headSha: effect.headSha, base };
  const recorded = await deps.store.apply(state.goal.id, (s, now) =>
    recordBranchInBase(s, input, { actor: { kind: "app" }, now, newId: deps.newId }),
  );
  const outcome = recorded.ok ? "recorded" : recorded.refusal.message;
  deps.log.info(
    `${effect.branch} at ${effect.headSha.slice(0, 7)} is already in ${base}: ${outcome}`,
  );
}
