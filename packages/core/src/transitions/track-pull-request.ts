import { z } from "zod";
import { PrMonitor } from "../schemas/pr-monitor.ts";
import { Scope, TodoKey } from "../schemas/primitives.ts";
import type { GoalState } from "../schemas/state.ts";
import type { Todo } from "../schemas/todo.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { commit } from "./commit.ts";
import { openPrScope } from "./held-pull-request.ts";
import type { Draft } from "./kit.ts";
import { addEffect, begin, emit, isRefused, parseInput, refuse } from "./kit.ts";
import { openGateIn } from "./open-gate.ts";

/** Only the app itself opens PRs on LoopX's branches; people link theirs with `/loopx link`. */
function requireApp(ctx: TransitionContext, what: string) {
  if (ctx.actor.kind === "app" || ctx.actor.kind === "agent") return null;
  return refuse("not_authorized", `Only LoopX itself may ${what}; link a PR with /loopx link #N.`);
}

/**
 * A todo finished or dropped before its branch had a PR (a writer ticked it while a slice
 * was still running) takes no PR for the commits that arrive after: a PR of its own would
 * make it not done again. Reopening the todo lets its next slice deliver them.
 */
function settledWithoutPullRequest(todo: Todo) {
  if (todo.status !== "done" && todo.status !== "dropped") return null;
  return refuse(
    "invalid_state",
    `${todo.key} is already ${todo.status}: commits pushed since open no pull request (reopen ${todo.key} to deliver them).`,
  );
}

const Sha = z.string().regex(/^[0-9a-f]{7,64}$/);

export const RequestPullRequestInput = z.object({
  todo: TodoKey,
  branch: z.string().regex(/^loopx\/[0-9]+-T[1-9][0-9]*$/, "a LoopX todo branch"),
  headSha: Sha,
  /**
   * The scopes of `.github/loopx.yml`'s `when: open_pr` rules: when any, a todo's first PR
   * waits for a writer to approve a gate (its own `open_pr:<todo>` scope plus these).
   */
  gateScopes: z.array(Scope).max(10).default([]),
});
export type RequestPullRequestInput = z.input<typeof RequestPullRequestInput>;

/**
 * A tick pushed its todo branch: queue opening (or updating) the branch's PR. The write
 * happens in the outbox, after commit, keyed per head so a retried push asks once.
 */
export function requestPullRequest(
  state: GoalState,
  input: RequestPullRequestInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(RequestPullRequestInput, input);
  if (isRefused(parsed)) return parsed;
  const denied = requireApp(ctx, "open pull requests");
  if (denied) return denied;
  const d = begin(state, ctx, { statuses: ["active", "paused"] });
  if (isRefused(d)) return d;
  const todo = d.state.todos.find((t) => t.key === parsed.todo);
  if (!todo) return refuse("not_found", `There is no todo ${parsed.todo} on this goal.`);
  // LoopX's own open PR of the branch; a linked PR of the same name (a fork's) is not it. A
  // merged or closed one does not stop new work: the App reconciles with GitHub before it
  // opens anything (it reopens a closed PR, and never opens a second PR for merged work).
  const open = d.state.pullRequests.some(
    (p) => p.headRef === parsed.branch && p.todo !== null && p.state === "open",
  );
  if (!open) {
    const settled = settledWithoutPullRequest(todo);
    if (settled) return settled;
    if (parsed.gateScopes.length > 0 && !openingApproved(d, todo.key)) {
      askToOpen(d, parsed);
      return commit(d);
    }
  }
  queueOpenPullRequest(d, parsed);
  return commit(d);
}

/** The outbox opens (or updates) the branch's PR after commit, once per head. */
export function queueOpenPullRequest(
  d: Draft,
  req: { todo: string; branch: string; headSha: string },
): void {
  d.status = false;
  emit(d, "pull_request.requested", { todo: req.todo, branch: req.branch });
  addEffect(d, {
    kind: "open_pull_request",
    key: `pr:${req.branch}:${req.headSha.slice(0, 12)}`,
    todo: req.todo,
    branch: req.branch,
    headSha: req.headSha,
  });
}

function openingApproved(d: Draft, todo: string): boolean {
  const scope = openPrScope(todo);
  return d.state.gates.some((g) => g.status === "approved" && g.scopes.includes(scope));
}

/**
 * One question per todo: a head pushed while it waits moves nothing (approving opens the PR
 * at the branch's latest head), and a rejected one is a person's "no PR for this".
 */
function askToOpen(d: Draft, req: z.output<typeof RequestPullRequestInput>): void {
  const scope = openPrScope(req.todo);
  const asked = d.state.gates.some(
    (g) => (g.status === "open" || g.status === "rejected") && g.scopes.includes(scope),
  );
  emit(d, "pull_request.held", { todo: req.todo, branch: req.branch, asked });
  if (asked) return;
  openGateIn(d, {
    question: `${req.todo}'s work is on \`${req.branch}\` (${req.headSha.slice(0, 12)}). .github/loopx.yml asks before LoopX opens a pull request: approve to open it, or reject to keep the work on its branch.`,
    scopes: [scope, ...req.gateScopes.filter((s) => s !== scope)],
    todo: req.todo,
  });
}

export const TrackPullRequestInput = z.object({
  number: z.number().int().positive(),
  todo: TodoKey,
  headRef: z.string().min(1).max(255),
  headSha: Sha,
});
export type TrackPullRequestInput = z.input<typeof TrackPullRequestInput>;

/**
 * Records the PR the app opened (or found open) for a todo's branch: the goal watches it and
 * the status comment lists it. Tracking it again only moves its head; a closed one the App
 * reopened for new work is followed again.
 */
export function trackPullRequest(
  state: GoalState,
  input: TrackPullRequestInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(TrackPullRequestInput, input);
  if (isRefused(parsed)) return parsed;
  const denied = requireApp(ctx, "track pull requests");
  if (denied) return denied;
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const known = d.state.pullRequests.find((p) => p.number === parsed.number);
  const todo = d.state.todos.find((t) => t.key === parsed.todo);
  const settled = !known && todo ? settledWithoutPullRequest(todo) : null;
  if (settled) return settled;
  if (known?.state === "merged") {
    return refuse("invalid_state", `#${known.number} is merged; it cannot carry new work.`);
  }
  if (known?.state === "closed") {
    // The App reopened its own PR for new work on the branch: the goal follows it again.
    known.state = "open";
    known.headSha = parsed.headSha;
    known.monitor.watching = true;
    known.monitor.fingerprints = known.monitor.fingerprints.filter(
      (f) => f !== `pr:${known.number}:closed`,
    );
    emit(d, "pull_request.linked", { pr: known.number, headSha: parsed.headSha, reopened: true });
  } else if (known) {
    // A repair or review todo pushes the PR's branch: the PR still serves its first todo.
    if (known.headSha === parsed.headSha) {
      return refuse("duplicate", `#${parsed.number} is already tracked at this head.`);
    }
    known.headSha = parsed.headSha;
  } else {
    d.state.pullRequests.push({
      number: parsed.number,
      todo: parsed.todo,
      headRef: parsed.headRef,
      headSha: parsed.headSha,
      state: "open",
      monitor: PrMonitor.parse({}),
    });
    emit(d, "pull_request.linked", {
      pr: parsed.number,
      todo: parsed.todo,
      headSha: parsed.headSha,
    });
  }
  return commit(d);
}
