import { decide, type Effect, freeTickSlots, type GoalState, todoBranch } from "@loopx/core";
import {
  type GitHubPort,
  type IssueRef,
  renderGateComment,
  renderManagedBlock,
  renderPatchComment,
  renderReceipt,
  renderStatusComment,
  renderTickComment,
  spliceManagedBlock,
} from "@loopx/github";
import { FULL_WINDOW, type OutboxItem, type Store } from "@loopx/store";
import type { AppDeps } from "../deps.ts";
import { loadRepoConfig } from "../repo-config.ts";
import { dispatchTick } from "../scheduler/dispatch-tick.ts";
import { approveRuns } from "./approve-runs.ts";
import { cancelRun } from "./cancel-run.ts";
import { createSubIssue, createTodoSubIssues } from "./create-sub-issue.ts";
import { dispatchJob } from "./dispatch-job.ts";
import { gateCoverage } from "./gate-coverage.ts";
import { keyedComment } from "./keyed-comment.ts";
import { postNotification } from "./notify-owners.ts";
import { openPullRequest } from "./open-pull-request.ts";
import { requestReview } from "./request-review.ts";
import { updateSubIssueTitle } from "./update-sub-issue-title.ts";
import { writeCheckRuns } from "./write-check-runs.ts";

export interface EffectContext {
  deps: AppDeps;
  port: GitHubPort;
  state: GoalState;
  item: OutboxItem;
  now: Date;
}

export const goalIssue = (state: GoalState): IssueRef => ({
  owner: state.goal.repo.owner,
  repo: state.goal.repo.name,
  number: state.goal.issue.number,
});

async function statusCommentUrl(store: Store, state: GoalState, serverUrl: string) {
  const status = await store.getProjection(state.goal.id, "status");
  if (status?.githubId == null) return null;
  const { owner, name } = state.goal.repo;
  return `${serverUrl}/${owner}/${name}/issues/${state.goal.issue.number}#issuecomment-${status.githubId}`;
}

/**
 * Rewrites the managed block only when it changed (status lives in the sticky comment). The
 * body is read first only when someone else may have edited it since our last write (their
 * edit's webhook says so); otherwise our last write is what GitHub holds. The body the write
 * is based on is recorded first: if anyone edits before our PATCH lands, the echo of our own
 * edit shows it in `changes.body.from`, and the app restores their text.
 */
async function writeBody({ deps, port, state, now }: EffectContext): Promise<void> {
  const issue = goalIssue(state);
  const url = await statusCommentUrl(deps.store, state, deps.serverUrl);
  const block = renderManagedBlock(state, {
    statusCommentUrl: url,
    now,
    dashboardUrl: deps.dashboardUrl
      ? `${deps.dashboardUrl}/goals/${encodeURIComponent(state.goal.id)}`
      : null,
  });
  const known = await deps.store.getProjection(state.goal.id, "body");
  const current =
    known?.wroteIsCurrent && known.wroteBody !== null
      ? known.wroteBody
      : (await port.getIssue(issue)).body;
  const next = spliceManagedBlock(current, block);
  if (next === current) return;
  await deps.store.setProjection(state.goal.id, "body", {
    readBody: current,
    wroteBody: next,
    wroteIsCurrent: true,
  });
  await port.setIssueBody(issue, next);
}

async function writeStatus(ctx: EffectContext): Promise<void> {
  const { deps, port, state, now } = ctx;
  const issue = goalIssue(state);
  const dead = await deps.store.deadLetters(state.goal.id);
  const body = renderStatusComment(state, decide(state, now, "app"), {
    now,
    serverUrl: deps.serverUrl,
    deadLetters: dead.map((d) => ({
      what: d.effect.kind.replaceAll("_", " "),
      reason: d.lastError ?? "unknown",
      attempts: d.attempts,
    })),
  });
  const known = await deps.store.getProjection(state.goal.id, "status");
  // Several transitions of one tick often render the same status: only a change is written.
  if (known?.githubId != null && known.wroteBody === body) return;
  const ref = await port.upsertComment(issue, "status", body, known?.githubId ?? null);
  await deps.store.setProjection(state.goal.id, "status", { githubId: ref.id, wroteBody: body });
  if (ref.id !== known?.githubId) {
    // The checklist links to the status comment, which exists only now.
    await writeBody(ctx);
  }
}

async function dispatch(
  { deps, port, state }: EffectContext,
  effect: Extract<Effect, { kind: "dispatch" }>,
): Promise<void> {
  if (state.goal.status !== "active") return;
  const repo = { owner: state.goal.repo.owner, repo: state.goal.repo.name };
  let target = effect.target;
  if (target === undefined) {
    const config = await loadRepoConfig(port, repo);
    // An invalid config pauses the goal when it is read; a dispatch queued before that is moot.
    if (!config.ok) return;
    target = { workflow: config.config.tickWorkflow, ref: await port.defaultBranch(repo) };
  }
  // Every slot busy: the tick that ends first frees one, and its result dispatches again.
  // Leases are judged on the database clock; a goal's one slot needs no clock at all. A
  // free slot another dispatch already went to (its run has not claimed yet) is skipped:
  // a second run there would only queue behind the first in its concurrency group.
  const slot =
    state.goal.parallel > 1
      ? await deps.store.reserveDispatchSlot(
          state.goal.id,
          freeTickSlots(state, await deps.store.databaseNow()),
        )
      : "";
  if (slot === null) return;
  let runId: number | null;
  try {
    runId = await dispatchTick(
      deps,
      port,
      { ...repo, issueNumber: state.goal.issue.number },
      target.workflow,
      target.ref,
      slot,
    );
  } catch (error) {
    // Nothing was dispatched into the slot: the outbox's retry may take it again.
    if (slot !== "") await deps.store.releaseDispatch(state.goal.id, slot);
    throw error;
  }
  // The scheduler must not dispatch this same wake again once its grace period is over.
  await deps.store.markDispatched(state.goal.id);
  if (runId !== null) await deps.store.recordDispatchRun(state.goal.id, runId, slot);
}

/**
 * A comment per productive tick only where `.github/loopx.yml` says `comments: sticky`;
 * otherwise the status comment alone tells the story. An invalid config keeps the default
 * (its goal pauses where the config is read).
 */
async function writeTickComment(ctx: EffectContext, key: string, tickId: string): Promise<void> {
  const { port, state } = ctx;
  const repo = { owner: state.goal.repo.owner, repo: state.goal.repo.name };
  const config = await loadRepoConfig(port, repo);
  if (!config.ok || config.config.comments !== "sticky") return;
  const body = renderTickComment(state, tickId, { serverUrl: ctx.deps.serverUrl, now: ctx.now });
  await keyedComment(ctx, goalIssue(state), key, body);
}

/** Performs one outbox row against GitHub, rendering from the newest state. Idempotent. */
export async function performEffect(ctx: EffectContext): Promise<void> {
  const { port, state } = ctx;
  const effect: Effect = ctx.item.effect;
  const issue = goalIssue(state);
  switch (effect.kind) {
    case "body":
      return writeBody(ctx);
    case "status":
      return writeStatus(ctx);
    case "check_runs":
      return writeCheckRuns(ctx);
    case "tick_comment":
      return writeTickComment(ctx, effect.key, effect.tickId);
    case "gate_comment": {
      const gate = state.gates.find((g) => g.key === effect.gate);
      if (!gate) return;
      const coverage = await gateCoverage(port, state, gate, ctx.now, ctx.deps.log);
      await keyedComment(ctx, issue, effect.key, renderGateComment(gate, state.goal, coverage));
      return;
    }
    case "receipt":
      await keyedComment(ctx, issue, effect.key, renderReceipt(effect.text));
      return;
    case "patch_comment":
      await keyedComment(
        ctx,
        issue,
        effect.key,
        renderPatchComment({ ...effect, branch: todoBranch(state, effect.todo) }),
      );
      return;
    case "dispatch":
      return dispatch(ctx, effect);
    case "close_issue":
      await port.closeIssue(issue, "completed");
      return;
    case "close_sub_issue": {
      // A transition that finished many todos at once can leave some beyond the window.
      const todo =
        state.todos.find((t) => t.key === effect.todo) ??
        (await ctx.deps.store.loadGoal(state.goal.id, FULL_WINDOW))?.todos.find(
          (t) => t.key === effect.todo,
        );
      if (todo?.subIssue) {
        await port.closeIssue({ ...issue, number: todo.subIssue.number }, effect.reason);
      }
      return;
    }
    case "create_sub_issue":
      return createSubIssue(ctx.deps, port, state, effect.todo);
    case "todo_sub_issues":
      return createTodoSubIssues(ctx.deps, port, state);
    case "sub_issue_title":
      return updateSubIssueTitle(port, state, effect.todo);
    case "review_request":
      return requestReview(port, state, effect);
    case "open_pull_request":
      return openPullRequest(ctx.deps, port, state, effect, { retry: ctx.item.attempts > 0 });
    case "approve_runs":
      return approveRuns(port, state, effect, ctx.deps.serverUrl);
    case "cancel_run":
      return cancelRun(port, state, effect, ctx.item.lastError, ctx.now);
    case "notify":
      return postNotification(ctx, effect);
    case "dispatch_job":
      return dispatchJob(ctx.deps, port, state, effect, ctx.now);
  }
}

/** An effect this build cannot perform yet: parked as a dead letter, shown on the status. */
export class UnsupportedEffectError extends Error {
  override name = "UnsupportedEffectError";
  constructor(kind: string) {
    super(`${kind} is not supported by this build of the LoopX app`);
  }
}
