import { addTodo } from "@loopx/core";
import { parseChecklist } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";

const o = { owner: "acme", repo: "widgets" } as const;

/**
 * Scenario: a person edits the goal issue while the app's body PATCH is in flight (GitHub's
 * PATCH has no compare-and-swap, so the app's write lands last and drops their text). The
 * echo of the app's own edit shows it, and the app puts their text back.
 */
describe("e2e: a human edit racing the app's body write", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it("the human's text survives; the app's checklist too", async () => {
    const { data } = await h
      .as("alice")
      .rest.issues.create({ ...o, title: "Cache the widgets", body: "Cache them." });
    const number = data.number;
    await h.as("alice").rest.issues.addLabels({ ...o, issue_number: number, labels: ["loopx"] });
    await h.settle();
    const goal = await h.store.findGoalByIssue(h.repo.id, number);
    if (!goal) throw new Error("no goal");
    const before =
      (await h.as("alice").rest.issues.get({ ...o, issue_number: number })).data.body ?? "";

    // The app's next PATCH of this issue waits 1.5 s inside the sandbox, after the app read the body.
    h.sandbox.faults.route({ route: "issues/update", method: "PATCH", latencyMs: 1500, times: 1 });
    const mark = h.sandbox.requests().length;
    const r = await h.store.apply(goal.goal.id, (s, now) =>
      addTodo(
        s,
        { title: "Pick a cache key" },
        { actor: { kind: "human", login: "alice", trusted: true }, now, newId: h.app.deps.newId },
      ),
    );
    expect(r.ok).toBe(true);
    h.app.outbox.kick();
    const path = `/repos/acme/widgets/issues/${number}`;
    const deadline = Date.now() + 10_000;
    while (
      !h.sandbox
        .requests()
        .slice(mark)
        .some((q) => q.operationId === "issues/update" && q.path.endsWith(path) && q.status === 0)
    ) {
      if (Date.now() > deadline) throw new Error("the app never wrote the body");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // The app's PATCH is in flight; the person edits the body it read.
    const human = before.replace("Cache them.", "Cache them, but never for more than a minute.");
    await h.as("alice").rest.issues.update({ ...o, issue_number: number, body: human });
    await h.settle();

    const after =
      (await h.as("alice").rest.issues.get({ ...o, issue_number: number })).data.body ?? "";
    expect(after).toContain("never for more than a minute");
    expect(after.startsWith("Cache them, but never")).toBe(true);
    expect(parseChecklist(after)).toEqual([{ todo: "T1", checked: false }]);
    // The app overwrote it once and restored it once: two PATCHes of its own on this body.
    const patches = h.sandbox
      .requests()
      .slice(mark)
      .filter((q) => q.operationId === "issues/update" && q.path.endsWith(path));
    expect(patches).toHaveLength(3);
  });
});
