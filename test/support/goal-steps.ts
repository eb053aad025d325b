/** Steps the command and gate scenarios share: start a goal, comment, read what GitHub shows. */
import { randomUUID } from "node:crypto";
import { type GoalState, type OpenGateInput, openGate } from "@loopx/core";
import { readKey } from "@loopx/github";
import type { Harness } from "./app-harness.ts";

const repo = { owner: "acme", repo: "widgets" } as const;

/** Files an issue as `login` and labels it `loopx` as `labeler`: the goal exists after this. */
export async function startGoal(
  h: Harness,
  labeler = "alice",
  title = "Make widgets faster",
): Promise<{ number: number; goalId: string }> {
  const { data } = await h.as(labeler).rest.issues.create({ ...repo, title, body: "Please." });
  await h
    .as(labeler)
    .rest.issues.addLabels({ ...repo, issue_number: data.number, labels: ["loopx"] });
  await h.settle();
  const goal = await h.store.findGoalByIssue(h.repo.id, data.number);
  if (!goal) throw new Error(`no goal for #${data.number}`);
  return { number: data.number, goalId: goal.goal.id };
}

/**
 * alice's goal with a todo T1, and wendy's pull request from `loopx/1-T1` (one commit):
 * where the PR-bound gate scenarios start. `first` is the PR's head.
 */
export async function startGoalWithPull(
  h: Harness,
): Promise<{ number: number; goalId: string; pr: number; first: string }> {
  const { number, goalId } = await startGoal(h, "alice");
  await comment(h, "alice", number, "/loopx todo add Merge the fix");
  const first = h.sandbox.push("acme/widgets", "loopx/1-T1", { "fix.txt": "one\n" }, "wendy");
  const created = await h.as("wendy").rest.pulls.create({
    ...repo,
    head: "loopx/1-T1",
    base: "main",
    title: "The fix",
  });
  await h.settle();
  return { number, goalId, pr: created.data.number, first };
}

/** alice's goal with one todo T1 (`title`) that LoopX made a sub-issue: the sub-issue's number. */
export async function startGoalWithSubIssue(
  h: Harness,
  title: string,
): Promise<{ number: number; goalId: string; sub: number }> {
  const { number, goalId } = await startGoal(h, "alice");
  await comment(h, "alice", number, `/loopx todo add ${title} --issue`);
  await h.settle();
  const t1 = (await goal(h, goalId)).todos.find((t) => t.key === "T1");
  if (!t1?.subIssue) throw new Error("T1 has no sub-issue");
  return { number, goalId, sub: t1.subIssue.number };
}

/** Posts a comment as `login` and waits until the app has processed it and written back. */
export async function comment(h: Harness, login: string, number: number, body: string) {
  const { data } = await h
    .as(login)
    .rest.issues.createComment({ ...repo, issue_number: number, body });
  await h.settle();
  return data.id;
}

export async function reactions(h: Harness, commentId: number): Promise<string[]> {
  const { data } = await h.as("alice").rest.reactions.listForIssueComment({
    ...repo,
    comment_id: commentId,
  });
  return data.map((r) => r.content).sort();
}

/** The app's comments on an issue or PR, with their hidden keys. */
export async function botComments(h: Harness, number: number) {
  const alice = h.as("alice");
  const data = await alice.paginate(alice.rest.issues.listComments, {
    ...repo,
    issue_number: number,
    per_page: 100,
  });
  return data
    .filter((c) => c.user?.login === "loopx[bot]")
    .map((c) => ({ id: c.id, key: readKey(c.body ?? ""), body: c.body ?? "" }));
}

/** The app's reply to one comment, if it made one. */
export async function replyTo(h: Harness, number: number, commentId: number) {
  return (await botComments(h, number)).find((c) => c.key === `reply:comment:${commentId}`) ?? null;
}

export async function goal(h: Harness, goalId: string): Promise<GoalState> {
  const state = await h.store.loadGoal(goalId);
  if (!state) throw new Error(`goal ${goalId} is gone`);
  return state;
}

/** Opens a gate as the kernel would from a tick result, then lets the outbox project it. */
export async function openTestGate(h: Harness, goalId: string, input: OpenGateInput) {
  const r = await h.store.apply(goalId, (s, now) =>
    openGate(s, input, { actor: { kind: "app" }, now, newId: randomUUID }),
  );
  if (!r.ok) throw new Error(`openGate refused: ${r.refusal.message}`);
  h.app.outbox.kick();
  await h.settle();
  return r.state;
}

/** Workflow dispatches the app made since request index `from`. */
export function dispatchesSince(h: Harness, from: number): number {
  return h.sandbox
    .requests()
    .slice(from)
    .filter((r) => r.operationId === "actions/create-workflow-dispatch").length;
}
