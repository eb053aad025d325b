import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { playPlanTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

const repo = { owner: "acme", repo: "widgets" } as const;

/**
 * Scenario: `todos: sub-issues` in `.github/loopx.yml`. Without it a task list stays a
 * checklist; with it the task list's todos become sub-issues at once, and an agent's plan
 * (under `plan: approve`) becomes sub-issues only when a writer approves it; a later plan
 * rewording one retitles its sub-issue, and the echo of that write is ignored.
 */
describe("e2e: todos: sub-issues", () => {
  let h: TickHarness;
  let planned = { number: 0, todo: "" };
  beforeAll(async () => {
    h = await startTickHarness({ onPostgres: true });
  });
  afterAll(() => h.close());

  const subIssues = async (number: number) =>
    (await h.as("alice").rest.issues.listSubIssues({ ...repo, issue_number: number })).data;
  const file = (title: string, body: string) => h.fileIssue({ title, body });
  const goalOf = async (number: number) => {
    const goal = await h.store.findGoalByIssue(h.repo.id, number);
    if (!goal) throw new Error(`no goal for #${number}`);
    return goal;
  };

  it("by default a task list stays the checklist: no sub-issues", async () => {
    const number = await file("Tidy up", "- [ ] Remove dead code\n");
    expect((await goalOf(number)).todos.map((t) => t.subIssue)).toEqual([null]);
    expect(await subIssues(number)).toEqual([]);
  });

  it("with todos: sub-issues, each todo of a writer's task list becomes a sub-issue", async () => {
    h.sandbox.push(
      "acme/widgets",
      "main",
      { ".github/loopx.yml": "todos: sub-issues\nplan: approve\n" },
      "alice",
    );
    const number = await file("Speed up search", "- [ ] Add an index\n- [ ] Cache results\n");
    await h.settle();
    const goal = await goalOf(number);
    const subs = await subIssues(number);
    expect(subs.map((s) => s.title).sort()).toEqual(["T1: Add an index", "T2: Cache results"]);
    expect(goal.todos.map((t) => t.subIssue?.id).sort()).toEqual(subs.map((s) => s.id).sort());
  });

  it("an agent's plan becomes sub-issues once a writer approves it, not before", async () => {
    const number = await file("Add a size chart", "Customers ask which gear fits.");
    const status = await playPlanTick(h, number, {
      done: "Planned the chart.",
      next: "Measure.",
      proposedTodos: [{ title: "Measure every gear" }, { title: "Render the chart" }],
    });
    expect(status).toBe(200);
    await h.settle();
    let goal = await goalOf(number);
    const proposed = goal.todos.filter((t) => t.status === "proposed");
    expect(proposed.map((t) => t.title)).toEqual(["Measure every gear", "Render the chart"]);
    expect(await subIssues(number)).toEqual([]);
    const gate = goal.gates.find((g) => g.status === "open");
    if (!gate) throw new Error("no plan gate");
    await h.as("alice").rest.issues.createComment({
      ...repo,
      issue_number: number,
      body: `/loopx approve ${gate.key}`,
    });
    await h.settle();
    goal = await goalOf(number);
    const subs = await subIssues(number);
    const keys = proposed.map((t) => t.key);
    expect(subs.map((s) => s.title).sort()).toEqual([
      `${keys[0]}: Measure every gear`,
      `${keys[1]}: Render the chart`,
    ]);
    // The planning todo itself is no work to track: it gets none.
    expect(goal.todos.filter((t) => t.kind === "plan").map((t) => t.subIssue)).toEqual([null]);
    planned = { number, todo: keys[0] ?? "" };
  });

  it("a later plan that rewords a todo retitles its sub-issue; the echo changes and writes nothing", async () => {
    const { number, todo } = planned;
    await h.as("alice").rest.issues.createComment({
      ...repo,
      issue_number: number,
      body: "/loopx replan",
    });
    await h.settle();
    const before = h.sandbox.requests().length;
    const status = await playPlanTick(h, number, {
      done: "Reworded the measuring.",
      next: "Measure.",
      revisions: { reword: [{ todo, title: "Measure every gear twice" }] },
    });
    expect(status).toBe(200);
    await h.settle();
    const goal = await goalOf(number);
    const sub = goal.todos.find((t) => t.key === todo)?.subIssue;
    if (!sub) throw new Error(`${todo} has no sub-issue`);
    const { data } = await h.as("alice").rest.issues.get({ ...repo, issue_number: sub.number });
    expect(data.title).toBe(`${todo}: Measure every gear twice`);
    // One title write; its echo (sent by the App's bot) renamed nothing and wrote nothing.
    const titleWrites = h.sandbox
      .requests()
      .slice(before)
      .filter((r) => r.method === "PATCH" && r.path === `/repos/acme/widgets/issues/${sub.number}`);
    expect(titleWrites).toHaveLength(1);
    expect(goal.todos.find((t) => t.key === todo)?.title).toBe("Measure every gear twice");
    const version = goal.goal.version;
    const from = h.sandbox.requests().length;
    await h.settle();
    expect((await goalOf(number)).goal.version).toBe(version);
    const writes = h.sandbox
      .requests()
      .slice(from)
      .filter((r) => r.by?.startsWith("installation:") && r.method !== "GET");
    expect(writes).toEqual([]);
  });
});
