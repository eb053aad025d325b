import { type Effect, type GoalState, sameSha, trackPullRequest } from "@loopx/core";
import {
  GitHubError,
  type GitHubPort,
  type IssueRef,
  type PullSnapshot,
  type RepoName,
  renderPrHandoff,
  renderPullBody,
  renderPullTitle,
} from "@loopx/github";
import type { AppDeps } from "../deps.ts";
import { transitionContext } from "../intake/goal-context.ts";
import { monitorPull, type PullTarget } from "../pulls/monitor-pull.ts";
import { recordInBase, settleFromPull } from "./reconcile-branch.ts";
import { routeReviewers } from "./route-reviewers.ts";

type OpenPull = Extract<Effect, { kind: "open_pull_request" }>;

/**
 * Performs `open_pull_request`: the todo branch's PR, opened with the app's own identity (so
 * the repository's CI runs on it), or — when the app already has one open for that head —
 * updated in place; never a second one. Unless the goal has never had a PR on the branch, it
 * first reconciles with what GitHub holds for the branch, in any state: a PR of its own that
 * already merged or closed at this very head settles the todo instead (settleFromPull); one a
 * person closed before new work arrived is reopened; a head already in the base settles the
 * todo from GitHub's refusal (recordInBase). Then the goal tracks the PR, so the status
 * comment lists it and the PR monitor follows it. A PR someone else opened on a LoopX branch
 * is not adopted: it joins only through `/loopx link` by a writer. On a first try, new work on
 * LoopX's own open PR and a branch the goal never had a PR on skip the listing (GitHub refuses
 * a second open PR for a head, and that refusal starts the reconciling); a retry reconciles,
 * since the world may have moved on while it failed.
 */
export async function openPullRequest(
  deps: AppDeps,
  port: GitHubPort,
  state: GoalState,
  effect: OpenPull,
  opts: { retry: boolean } = { retry: true },
): Promise<void> {
  // A monitor todo pushes its PR's branch: the PR keeps describing the todo it was opened for.
  const tracked = state.pullRequests.find((p) => p.headRef === effect.branch && p.todo !== null);
  const todo = state.todos.find((t) => t.key === (tracked?.todo ?? effect.todo));
  if (!todo || state.goal.status === "done" || state.goal.status === "stopped") return;
  if (tracked?.state !== "open" && (todo.status === "done" || todo.status === "dropped")) {
    // Settled before its branch had a PR: a PR now would only make it not done again.
    deps.log.info(`${todo.key} is ${todo.status}; ${effect.branch} gets no pull request.`);
    return;
  }
  const repo = { owner: state.goal.repo.owner, repo: state.goal.repo.name };
  const at = { todo: todo.key, branch: effect.branch, headSha: effect.headSha };
  const title = renderPullTitle(todo);
  const body = renderPullBody(state, todo);
  // New work on LoopX's own open PR, as the goal knows it: nothing to reconcile, no list read.
  const known = tracked?.state === "open" && !opts.retry;
  if (known && (await ownPullBody(deps, state, tracked.number)) !== null) {
    await writePullText(deps, port, state, tracked.number, { title, body });
    return follow(deps, port, state, todo.key, effect.branch, {
      number: tracked.number,
      headSha: effect.headSha,
    });
  }
  /** Opens the PR, or settles the todo when main has its head; GitHub's words when one is open. */
  const create = async (): Promise<string | null> => {
    const base = await port.defaultBranch(repo);
    const made = await port.createPull(repo, { title, head: effect.branch, base, body });
    if ("alreadyOpen" in made) return made.message;
    if ("nothingToPull" in made) await recordInBase(deps, state, at, base);
    else await opened(deps, port, state, todo.key, effect, made, body);
    return null;
  };
  // A branch the goal never had a PR for, on a first try: GitHub's answer to the create says
  // whether one is open already, so the branch's PRs are listed only when it says so.
  if (!opts.retry && !state.pullRequests.some((p) => p.headRef === effect.branch)) {
    const open = await create();
    if (open === null) return;
    deps.log.info(`${effect.branch}: ${open} Reconciling with it.`);
  }
  const bot = await port.botLogin();
  const pulls = await port.findPullsByHead(repo, effect.branch);
  const own = pulls.filter((p) => p.author === bot);
  const pull = own.find((p) => p.state === "open");
  const latestOwn = own[0];
  if (pull) {
    if (pull.body !== body) await port.updatePull(repo, pull.number, { title, body });
    await deps.store.setProjection(state.goal.id, `pull:${pull.number}`, { wroteBody: body });
    return follow(deps, port, state, todo.key, effect.branch, pull);
  }
  const other = pulls.find((p) => p.state === "open");
  if (other) {
    deps.log.info(
      `${effect.branch} already has #${other.number} by someone else; LoopX does not adopt it (use /loopx link).`,
    );
    return;
  }
  if (latestOwn && sameSha(latestOwn.headSha, effect.headSha)) {
    return settleFromPull(deps, state, at, latestOwn);
  }
  if (latestOwn && !latestOwn.merged) {
    const back = await reopen(port, repo, latestOwn, { title, body });
    await deps.store.setProjection(state.goal.id, `pull:${back.number}`, { wroteBody: body });
    const latest = await track(deps, state, todo.key, effect.branch, back);
    await writeHandoff(deps, port, latest ?? state, { ...repo, number: back.number }, false);
    // Its reopening and checks may have been announced before the goal followed it again.
    return settleFromPull(deps, latest ?? state, at, back);
  }
  const open = await create();
  if (open !== null) {
    throw new GitHubError(
      `${effect.branch}: ${open} It was not among the branch's pull requests a moment ago; retrying.`,
      422,
      null,
    );
  }
}

/**
 * A PR this effect just created: the goal follows it, its handoff is posted, reviewers are
 * routed, and anything announced before the goal followed it is caught up on.
 */
async function opened(
  deps: AppDeps,
  port: GitHubPort,
  state: GoalState,
  todo: string,
  effect: OpenPull,
  made: PullSnapshot,
  body: string,
): Promise<void> {
  await deps.store.setProjection(state.goal.id, `pull:${made.number}`, { wroteBody: body });
  const repo = { owner: state.goal.repo.owner, repo: state.goal.repo.name };
  const latest = await track(deps, state, todo, effect.branch, made);
  await writeHandoff(deps, port, latest ?? state, { ...repo, number: made.number }, true);
  const read = await routeReviewers(port, repo, latest ?? state, made);
  // A PR opened just now was read a moment ago for its reviewers: that read is the glance's (a
  // review request changes neither its state nor its head), and starts the mergeability job.
  if (latest !== null) await catchUp(deps, port, state, made.number, read);
}

/** The body LoopX last wrote on its own PR `number`, or null when it has no record of one. */
async function ownPullBody(deps: AppDeps, state: GoalState, number: number) {
  return (await deps.store.getProjection(state.goal.id, `pull:${number}`))?.wroteBody ?? null;
}

/** Rewrites the PR's title and body only when what LoopX renders differs from what it wrote. */
async function writePullText(
  deps: AppDeps,
  port: GitHubPort,
  state: GoalState,
  number: number,
  text: { title: string; body: string },
): Promise<void> {
  if ((await ownPullBody(deps, state, number)) === text.body) return;
  const repo = { owner: state.goal.repo.owner, repo: state.goal.repo.name };
  await port.updatePull(repo, number, text);
  await deps.store.setProjection(state.goal.id, `pull:${number}`, { wroteBody: text.body });
}

/** The goal follows the PR at its head; null when it already did (or finished meanwhile). */
async function track(
  deps: AppDeps,
  state: GoalState,
  todo: string,
  headRef: string,
  pull: { number: number; headSha: string },
): Promise<GoalState | null> {
  const recorded = await deps.store.apply(state.goal.id, (s, now) =>
    trackPullRequest(
      s,
      { number: pull.number, todo, headRef, headSha: pull.headSha },
      transitionContext(deps, { kind: "app" }, now),
    ),
  );
  // Already tracked at this head, or the goal finished meanwhile: nothing to retry.
  if (!recorded.ok) deps.log.info(`#${pull.number}: ${recorded.refusal.message}`);
  return recorded.ok ? recorded.state : null;
}

/**
 * New work on a PR LoopX already has open: the goal follows its new head and the reviewer
 * handoff says what changed. Deliveries about the head (a check suite that completed already)
 * may have found the goal watching the old one: a glance catches up, and its pulls/get also
 * starts GitHub's mergeability job, so the suite's completion finds mergeability computed.
 */
async function follow(
  deps: AppDeps,
  port: GitHubPort,
  state: GoalState,
  todo: string,
  headRef: string,
  pull: { number: number; headSha: string },
): Promise<void> {
  const latest = await track(deps, state, todo, headRef, pull);
  const { owner, name } = state.goal.repo;
  await writeHandoff(
    deps,
    port,
    latest ?? state,
    { owner, repo: name, number: pull.number },
    false,
  );
  if (latest !== null) await catchUp(deps, port, state, pull.number, null);
}

/**
 * The PR is open and followed whatever this read says: GitHub failing it fails nothing, and a
 * retried effect would not read again (the PR is tracked by then). Suite deliveries and the
 * backstop read it later. Only a PR that is no longer open or a CI check that already
 * finished can have been announced before the goal followed it: the monitor's full reading
 * (seven calls) is made only then, and a check still running announces itself when it ends.
 */
async function catchUp(
  deps: AppDeps,
  port: GitHubPort,
  state: GoalState,
  number: number,
  read: PullSnapshot | null,
): Promise<void> {
  const target = pullTarget(state, number);
  try {
    const pull = read ?? (await port.getPull(target.repo, target.number));
    if (!(await missedAnything(port, target, pull))) return;
    // The reviewers' request since that read changed nothing the monitor reads; a read that
    // found mergeability not yet computed is made again, as GitHub computes it meanwhile.
    await monitorPull(deps, target, null, pull.mergeable === null ? undefined : pull);
  } catch (error) {
    if (!(error instanceof GitHubError)) throw error;
    deps.log.info(
      `#${number} is tracked; reading it failed (${error.message}), later reads catch up`,
    );
  }
}

async function missedAnything(
  port: GitHubPort,
  target: PullTarget,
  pull: PullSnapshot,
): Promise<boolean> {
  if (pull.merged || pull.state !== "open") return true;
  const bot = await port.botLogin();
  const checks = await port.listChecks(target.repo, pull.headSha);
  // The monitor reads nothing for LoopX's own check runs: none of theirs was missed.
  return checks.some((c) => c.status !== "pending" && !(c.app != null && `${c.app}[bot]` === bot));
}

function pullTarget(state: GoalState, number: number): PullTarget {
  const { goal } = state;
  const repo = { owner: goal.repo.owner, repo: goal.repo.name };
  return { installationId: goal.installationId, repoId: goal.repo.id, repo, number };
}

/**
 * The PR's handoff comment, edited by the id stored when it was created. A PR this very call
 * opened has no comments yet, so its first one is posted without a list; a stored id that GitHub
 * no longer knows (a person deleted the comment) is found again by key, or written anew.
 */
async function writeHandoff(
  deps: AppDeps,
  port: GitHubPort,
  state: GoalState,
  pull: IssueRef,
  created: boolean,
): Promise<void> {
  const pr = state.pullRequests.find((p) => p.number === pull.number);
  if (!pr) return;
  const key = `handoff:${state.goal.id}:${pull.number}`;
  const target = `comment:${key}` as const;
  const body = renderPrHandoff(state, pr, await deps.store.databaseNow());
  const known = await deps.store.getProjection(state.goal.id, target);
  const ref =
    created && known?.githubId == null
      ? await port.ensureComment(pull, key, body, { unwritten: true })
      : await port.upsertComment(pull, key, body, known?.githubId ?? null);
  if (ref.id !== known?.githubId) {
    await deps.store.setProjection(state.goal.id, target, { githubId: ref.id });
  }
}

/**
 * New work on a branch whose PR a person closed unmerged: that PR is reopened (its history
 * and review stay in one place), never a silent second one. GitHub refuses when the branch
 * was rewritten or deleted; then a person has to decide, and the error says how.
 */
async function reopen(
  port: GitHubPort,
  repo: RepoName,
  closed: PullSnapshot,
  text: { title: string; body: string },
): Promise<PullSnapshot> {
  try {
    await port.updatePull(repo, closed.number, { ...text, state: "open" });
  } catch (error) {
    if (!(error instanceof GitHubError) || error.status !== 422) throw error;
    throw new GitHubError(
      `#${closed.number} (closed unmerged) has new work on ${closed.headRef}, but GitHub refused to reopen it (${error.message}); reopen it or open a PR by hand and /loopx link it`,
      error.status,
      null,
      { cause: error },
    );
  }
  return port.getPull(repo, closed.number);
}
