import { addTodo } from "@loopx/core";
import { parseChecklist, readKey } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";

const o = { owner: "acme", repo: "widgets" } as const;

/** Scenario: a box in the checklist ticked by a writer completes its todo; by anyone else, reverted. */
describe("e2e: checklist ticks by a writer and by an outsider", () => {
  let h: Harness;
  let number: number;
  let goalId: string;

  beforeAll(async () => {
    h = await startHarness();
    const { data } = await h.as("wendy").rest.issues.create({
      ...o,
      title: "Tidy the widget API",
      body: "The API has grown warts.",
    });
    number = data.number;
    await h.as("wendy").rest.issues.addLabels({ ...o, issue_number: number, labels: ["loopx"] });
    await h.settle();
    const goal = await h.store.findGoalByIssue(h.repo.id, number);
    if (!goal) throw new Error("no goal");
    goalId = goal.goal.id;
    for (const title of ["Rename getWidget", "Drop the v1 shim"]) {
      const r = await h.store.apply(goalId, (s, now) =>
        addTodo(
          s,
          { title },
          { actor: { kind: "human", login: "wendy", trusted: true }, now, newId: h.app.deps.newId },
        ),
      );
      expect(r.ok).toBe(true);
    }
    await h.settle();
  });
  afterAll(() => h.close());

  const body = async () =>
    (await h.as("wendy").rest.issues.get({ ...o, issue_number: number })).data.body ?? "";
  const toggle = (text: string, todo: string, checked: boolean) =>
    text.replace(
      new RegExp(`- \\[[ x]\\] (${todo} .*<!-- loopx:todo=${todo} -->)`),
      `- [${checked ? "x" : " "}] $1`,
    );
  const edit = async (login: string, todo: string, checked: boolean) => {
    await h.as(login).rest.issues.update({
      ...o,
      issue_number: number,
      body: toggle(await body(), todo, checked),
    });
    await h.settle();
  };
  const comments = async () =>
    (await h.as("wendy").rest.issues.listComments({ ...o, issue_number: number })).data;
  const todo = async (key: string) =>
    (await h.store.loadGoal(goalId))?.todos.find((t) => t.key === key);

  it("a writer's tick completes the todo, with a receipt; the body keeps the tick", async () => {
    expect(parseChecklist(await body())).toEqual([
      { todo: "T1", checked: false },
      { todo: "T2", checked: false },
    ]);
    await edit("wendy", "T1", true);
    expect((await todo("T1"))?.status).toBe("done");
    const state = await h.store.loadGoal(goalId);
    expect(state?.evidence.map((e) => e.summary)).toContain("completed by @wendy");
    expect(parseChecklist(await body())).toContainEqual({ todo: "T1", checked: true });
    const receipts = (await comments()).filter((c) =>
      readKey(c.body ?? "")?.startsWith("receipt:checklist:"),
    );
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.body).toContain("T1 marked done by");
  });

  it("a writer's untick reopens it", async () => {
    await edit("wendy", "T1", false);
    expect((await todo("T1"))?.status).toBe("ready");
    expect(parseChecklist(await body())).toContainEqual({ todo: "T1", checked: false });
  });

  it("an outsider's tick is put back, with one reply per person per day even after two tries", async () => {
    // tom has triage: GitHub lets him edit the issue, LoopX gives him no authority.
    await edit("tom", "T2", true);
    await edit("tom", "T2", true);
    expect((await todo("T2"))?.status).toBe("ready");
    expect(parseChecklist(await body())).toContainEqual({ todo: "T2", checked: false });
    const refusals = (await comments()).filter((c) =>
      readKey(c.body ?? "")?.startsWith("checkbox-refused:tom:"),
    );
    expect(refusals).toHaveLength(1);
    expect(refusals[0]?.body).toContain("write access");
    // The author's text outside the block is never touched.
    expect((await body()).startsWith("The API has grown warts.")).toBe(true);
  });

  it("an outsider's edit of other text in the block is re-rendered; outside it, left alone", async () => {
    const before = await body();
    const tampered = before
      .replace("Drop the v1 shim", "Delete the repository")
      .concat("\n\nPS from tom");
    await h.as("tom").rest.issues.update({ ...o, issue_number: number, body: tampered });
    await h.settle();
    const after = await body();
    expect(after).toContain("Drop the v1 shim");
    expect(after).not.toContain("Delete the repository");
    expect(after).toContain("PS from tom");
    // No tick was tried: no second reply.
    const refusals = (await comments()).filter((c) =>
      readKey(c.body ?? "")?.startsWith("checkbox-refused:"),
    );
    expect(refusals).toHaveLength(1);
  });

  it("a writer's edit of the description asks for a replan; the objective snapshot stays", async () => {
    const text = await body();
    await h.as("wendy").rest.issues.update({
      ...o,
      issue_number: number,
      body: text.replace("The API has grown warts.", "The API has grown warts; keep v1 working."),
    });
    await h.settle();
    const state = await h.store.loadGoal(goalId);
    expect(state?.goal.replanRequested).toBe(true);
    expect(state?.goal.objective.body).toBe("The API has grown warts.");
  });
});
