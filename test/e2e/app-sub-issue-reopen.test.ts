import { parseChecklist } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { botComments, goal, startGoalWithSubIssue } from "../support/goal-steps.ts";

const o = { owner: "acme", repo: "widgets" } as const;

/**
 * Scenario: a todo's sub-issue, closed as completed by a writer, is reopened — by someone
 * with triage only (the todo stays done, they are told once), then by a writer (the todo is
 * open again, in the kernel and in the checklist).
 */
describe("e2e: reopening a todo's sub-issue", () => {
  let h: Harness;
  let number: number;
  let goalId: string;
  let sub: number;

  beforeAll(async () => {
    h = await startHarness({ onPostgres: true });
    ({ number, goalId, sub } = await startGoalWithSubIssue(h, "Write the migration"));
    await h.as("wendy").rest.issues.update({
      ...o,
      issue_number: sub,
      state: "closed",
      state_reason: "completed",
    });
    await h.settle();
    expect((await goal(h, goalId)).todos.find((t) => t.key === "T1")?.status).toBe("done");
  });
  afterAll(() => h.close());

  const t1 = async () => (await goal(h, goalId)).todos.find((t) => t.key === "T1");
  const setState = async (login: string, state: "open" | "closed") => {
    await h.as(login).rest.issues.update({
      ...o,
      issue_number: sub,
      state,
      ...(state === "closed" ? { state_reason: "completed" as const } : {}),
    });
    await h.settle();
  };
  const refusals = async () =>
    (await botComments(h, sub)).filter((c) => c.key === "sub-issue-reopen-refused:tom");

  it("reopened by someone without write access: the todo stays done, one reply, twice or not", async () => {
    const before = await goal(h, goalId);
    await setState("tom", "open");
    expect((await t1())?.status).toBe("done");
    const replies = await refusals();
    expect(replies).toHaveLength(1);
    expect(replies[0]?.body).toContain("stays done");
    await setState("wendy", "closed");
    await setState("tom", "open");
    expect(await refusals()).toHaveLength(1);
    const after = await goal(h, goalId);
    expect(after.todos.find((t) => t.key === "T1")).toEqual(
      before.todos.find((t) => t.key === "T1"),
    );
  });

  it("reopened by a writer: the todo is open again, with an event, and the checklist shows it", async () => {
    await setState("wendy", "closed");
    expect((await t1())?.status).toBe("done");
    await setState("wendy", "open");
    const todo = await t1();
    expect(todo).toMatchObject({ status: "ready", completion: null, subIssue: { number: sub } });
    const events = await h.store.goalEvents(goalId, "todo.reopened");
    expect(events.map((e) => e.actor)).toContainEqual(
      expect.objectContaining({ kind: "human", login: "wendy", trusted: true }),
    );
    const body = (await h.as("alice").rest.issues.get({ ...o, issue_number: number })).data.body;
    expect(parseChecklist(body ?? "").find((i) => i.todo === "T1")).toMatchObject({
      checked: false,
    });
    // The sub-issue stays open: nothing closed it again.
    const issue = (await h.as("alice").rest.issues.get({ ...o, issue_number: sub })).data;
    expect(issue.state).toBe("open");
  });
});
