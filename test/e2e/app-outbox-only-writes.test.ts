import { readKey } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { botComments, comment, openTestGate, startGoalWithPull } from "../support/goal-steps.ts";

const repo = { owner: "acme", repo: "widgets" } as const;
const READS = new Set(["GET", "HEAD"]);

/**
 * Scenario: the App writes GitHub only from its outbox. With the outbox worker stopped, a
 * corpus of every webhook family the App handles (labels by a writer and a triager,
 * commands from a writer, an outsider and a bot, notes, checklist ticks, a sub-issue closed
 * and unlinked, reviews, a push to a PR, a failed tick run, a close and a reopen) is
 * processed and the sandbox records no write made with the App's installation token. A new
 * App process on the same store then writes each of them, once.
 */
describe("e2e: with the outbox stopped, the App writes nothing; started, everything once", () => {
  let h: Harness;
  let goalNumber: number;
  let goalId: string;
  let pr: number;
  let first: string;
  let outsiderIssue: number;
  let secondIssue: number;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    h = await startHarness();
    ({ number: goalNumber, goalId, pr, first } = await startGoalWithPull(h));
    await comment(h, "alice", goalNumber, "/loopx todo add --issue Write the docs");
    await openTestGate(h, goalId, {
      question: "May I merge the fix?",
      scopes: ["merge"],
      requestedFrom: ["alice"],
      pr: { number: pr, headSha: first },
    });
    const create = async (login: string, title: string) =>
      (await h.as(login).rest.issues.create({ ...repo, title, body: "- [ ] one\n- [ ] two" })).data
        .number;
    outsiderIssue = await create("rita", "Label me");
    secondIssue = await create("alice", "Another goal");
    // A bot with write access: observed, never obeyed nor answered.
    const bot = h.sandbox.createUser("helper-bot[bot]", { type: "Bot" });
    h.sandbox.repoByFullName("acme/widgets").collaborators.set(bot.id, "write");
    await h.settle();
  });
  afterAll(() => h.close());

  const appWrites = (from: number) =>
    h.sandbox
      .requests()
      .slice(from)
      .filter((r) => r.by?.startsWith("installation:") && !READS.has(r.method))
      // GraphQL reads (review threads) are POSTs; the App sends no mutation.
      .filter((r) => r.path !== "/graphql");
  const post = async (login: string, number: number, body: string) => {
    const { data } = await h
      .as(login)
      .rest.issues.createComment({ ...repo, issue_number: number, body });
    return data.id;
  };
  const body = async (number: number) =>
    (await h.as("alice").rest.issues.get({ ...repo, issue_number: number })).data.body ?? "";

  it("replays the corpus with the outbox stopped: state commits, GitHub sees no write", async () => {
    await h.app.outbox.stop();
    const from = h.sandbox.requests().length;
    const alice = h.as("alice");
    await alice.rest.issues.addLabels({ ...repo, issue_number: secondIssue, labels: ["loopx"] });
    await h
      .as("tom")
      .rest.issues.addLabels({ ...repo, issue_number: outsiderIssue, labels: ["loopx"] });
    ids.status = await post("alice", goalNumber, "/loopx status");
    ids.refused = await post("alice", goalNumber, "/loopx approve G9");
    ids.outsider = await post("rita", goalNumber, "/loopx stop");
    ids.bot = await post("helper-bot[bot]", goalNumber, "/loopx stop");
    ids.note = await post("wendy", goalNumber, "Mind the flaky test.");
    await h.settle();
    // tom (triage) ticks a box: put back, with one reply.
    const current = await body(goalNumber);
    await h.as("tom").rest.issues.update({
      ...repo,
      issue_number: goalNumber,
      body: current.replace("- [ ] ", "- [x] "),
    });
    await h.settle();
    const state = await h.store.loadGoal(goalId);
    const sub = state?.todos.find((t) => t.subIssue !== null)?.subIssue;
    if (!sub) throw new Error("the sub-issue todo has no sub-issue");
    await h.as("tom").rest.issues.update({ ...repo, issue_number: sub.number, state: "closed" });
    await h.settle();
    await alice.rest.issues.removeSubIssue({
      ...repo,
      issue_number: goalNumber,
      sub_issue_id: sub.id,
    });
    await h
      .as("rita")
      .rest.pulls.createReview({ ...repo, pull_number: pr, event: "APPROVE", commit_id: first });
    await alice.rest.pulls.createReview({
      ...repo,
      pull_number: pr,
      event: "APPROVE",
      commit_id: first,
    });
    await h.settle();
    h.sandbox.push("acme/widgets", "loopx/1-T1", { "fix.txt": "two\n" }, "wendy");
    const { data: runs } = await alice.rest.actions.listWorkflowRunsForRepo({ ...repo });
    const run = runs.workflow_runs[0];
    if (!run) throw new Error("no dispatched tick run");
    h.sandbox.updateRun(run.id, "completed", "startup_failure");
    await alice.rest.issues.update({ ...repo, issue_number: secondIssue, state: "closed" });
    await h.settle();
    await alice.rest.issues.update({ ...repo, issue_number: secondIssue, state: "open" });
    await h.settle();

    const events = new Set(
      h.sandbox
        .deliveries()
        .map(
          (d) =>
            `${d.event}.${d.payload && typeof d.payload === "object" && "action" in d.payload ? String(d.payload.action) : ""}`,
        ),
    );
    for (const family of [
      "issues.labeled",
      "issue_comment.created",
      "issues.edited",
      "issues.closed",
      "issues.reopened",
      "sub_issues.sub_issue_removed",
      "pull_request_review.submitted",
      "pull_request.synchronize",
      "workflow_run.completed",
    ]) {
      expect(events, family).toContain(family);
    }
    expect(await h.store.pendingDeliveries(100)).toEqual([]);
    expect(appWrites(from)).toEqual([]);
    const second = await h.store.findGoalByIssue(h.repo.id, secondIssue);
    expect(second?.goal.status).toBe("stopped");
  });

  it("a new App process writes each of them once", async () => {
    const from = h.sandbox.requests().length;
    await h.restart();
    await h.settle();
    expect(appWrites(from).length).toBeGreaterThan(0);

    const keys = async (n: number) => (await botComments(h, n)).map((c) => c.key);
    const once = (all: (string | null)[], key: string) => all.filter((k) => k === key).length;
    const onGoal = await keys(goalNumber);
    expect(once(onGoal, `reply:comment:${ids.refused}`)).toBe(1);
    expect(once(onGoal, `reply:comment:${ids.outsider}`)).toBe(1);
    expect(onGoal).not.toContain(`reply:comment:${ids.status}`);
    expect(onGoal).not.toContain(`reply:comment:${ids.bot}`);
    expect(onGoal).not.toContain(`reply:comment:${ids.note}`);
    expect(onGoal.filter((k) => k?.startsWith("checkbox-refused:tom:"))).toHaveLength(1);
    expect(once(await keys(outsiderIssue), "label-refused:tom")).toBe(1);
    expect(await keys(pr)).toContain(
      `reply:review:${(await h.as("alice").rest.pulls.listReviews({ ...repo, pull_number: pr })).data.find((r) => r.user?.login === "rita")?.id}`,
    );
    const reopened = (await keys(secondIssue)).filter((k) => k?.startsWith("reopened:v"));
    expect(reopened).toHaveLength(1);
    expect((await keys(secondIssue)).filter((k) => k === "status")).toHaveLength(1);
    const reactions = async (id: number) =>
      (await h.as("alice").rest.reactions.listForIssueComment({ ...repo, comment_id: id })).data
        .map((r) => r.content)
        .sort();
    expect(await reactions(ids.status ?? 0)).toEqual(["+1", "eyes"]);
    expect(await reactions(ids.refused ?? 0)).toEqual(["eyes"]);
    expect(await reactions(ids.outsider ?? 0)).toEqual([]);
    expect(await reactions(ids.bot ?? 0)).toEqual([]);
    // Every comment the App wrote carries a key of its own: nothing was written twice.
    for (const n of [goalNumber, outsiderIssue, secondIssue, pr]) {
      const all = (await botComments(h, n)).map((c) => readKey(c.body));
      expect(new Set(all).size).toBe(all.length);
    }

    // Restarting again writes nothing more: every row was done once.
    const later = h.sandbox.requests().length;
    await h.restart();
    await h.settle();
    expect(appWrites(later).filter((r) => r.contentCreating)).toEqual([]);
  });
});
