import { addTodo } from "@loopx/core";
import { parseChecklist } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";

const o = { owner: "acme", repo: "widgets" } as const;

/** Scenario: todos as sub-issues, both ways — closed as completed vs not planned, and LoopX closing one. */
describe("e2e: sub-issues", () => {
  let h: Harness;
  let number: number;
  let goalId: string;

  beforeAll(async () => {
    h = await startHarness();
    const { data } = await h
      .as("wendy")
      .rest.issues.create({ ...o, title: "Migrate the database", body: "Postgres 17." });
    number = data.number;
    await h.as("wendy").rest.issues.addLabels({ ...o, issue_number: number, labels: ["loopx"] });
    await h.settle();
    const goal = await h.store.findGoalByIssue(h.repo.id, number);
    if (!goal) throw new Error("no goal");
    goalId = goal.goal.id;
    for (const title of [
      "Write the migration",
      "Port the stored procs",
      "Update the docs",
      "Bench it",
    ]) {
      const r = await h.store.apply(goalId, (s, now) =>
        addTodo(
          s,
          { title, asSubIssue: true },
          { actor: { kind: "human", login: "wendy", trusted: true }, now, newId: h.app.deps.newId },
        ),
      );
      expect(r.ok).toBe(true);
    }
    await h.settle();
  });
  afterAll(() => h.close());

  const state = async () => {
    const s = await h.store.loadGoal(goalId);
    if (!s) throw new Error("no goal");
    return s;
  };
  const sub = async (key: string) => {
    const t = (await state()).todos.find((x) => x.key === key);
    if (!t?.subIssue) throw new Error(`${key} has no sub-issue`);
    return t.subIssue;
  };
  const issue = async (n: number) =>
    (await h.as("wendy").rest.issues.get({ ...o, issue_number: n })).data;

  it("each todo becomes a sub-issue linked by id; the checklist links it; the body links the goal", async () => {
    const { data: subs } = await h
      .as("wendy")
      .rest.issues.listSubIssues({ ...o, issue_number: number });
    expect(subs).toHaveLength(4);
    const s = await state();
    expect(s.todos.map((t) => t.subIssue?.id).sort()).toEqual(subs.map((x) => x.id).sort());
    const t1 = await sub("T1");
    const created = await issue(t1.number);
    expect(created.title).toBe("T1: Write the migration");
    expect(created.body).toContain(`#${number}`);
    const goalBody = (await issue(number)).body ?? "";
    expect(goalBody).toContain(`Write the migration (#${t1.number})`);
    expect(parseChecklist(goalBody)).toHaveLength(4);
  });

  it("closed as completed by a writer: the todo is done, the close is its evidence", async () => {
    const t1 = await sub("T1");
    await h.as("wendy").rest.issues.update({
      ...o,
      issue_number: t1.number,
      state: "closed",
      state_reason: "completed",
    });
    await h.settle();
    const s = await state();
    expect(s.todos.find((t) => t.key === "T1")?.status).toBe("done");
    expect(s.evidence.map((e) => e.summary)).toContain(
      `sub-issue #${t1.number} closed as completed by @wendy`,
    );
  });

  it("closed as not planned: the todo is dropped", async () => {
    const t2 = await sub("T2");
    await h.as("wendy").rest.issues.update({
      ...o,
      issue_number: t2.number,
      state: "closed",
      state_reason: "not_planned",
    });
    await h.settle();
    expect((await state()).todos.find((t) => t.key === "T2")?.status).toBe("dropped");
  });

  it("a todo completed in LoopX closes its sub-issue as completed", async () => {
    const t3 = await sub("T3");
    const body = (await issue(number)).body ?? "";
    await h.as("wendy").rest.issues.update({
      ...o,
      issue_number: number,
      body: body.replace(/- \[ \] (T3 .*<!-- loopx:todo=T3 -->)/, "- [x] $1"),
    });
    await h.settle();
    expect((await state()).todos.find((t) => t.key === "T3")?.status).toBe("done");
    const closed = await issue(t3.number);
    expect(closed.state).toBe("closed");
    expect(closed.state_reason).toBe("completed");
  });

  it("a sub-issue unlinked by a person: the todo stays, the link goes", async () => {
    const t4 = await sub("T4");
    await h
      .as("wendy")
      .rest.issues.removeSubIssue({ ...o, issue_number: number, sub_issue_id: t4.id });
    await h.settle();
    const t = (await state()).todos.find((x) => x.key === "T4");
    expect(t).toMatchObject({ status: "ready", subIssue: null });
    expect((await issue(number)).body).not.toContain(`(#${t4.number})`);
  });
});
