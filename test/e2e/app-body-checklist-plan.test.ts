import { decide, MAX_INITIAL_TODOS } from "@loopx/core";
import { parseChecklist } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";

const CHECKLIST = [
  "Catalogue every gear we sell.",
  "",
  "- [ ] List the gears",
  "- [x] Pick a format",
  "- [ ] Publish the catalogue",
  "",
  "```md",
  "- [ ] an example, not a task",
  "```",
].join("\n");

/**
 * Scenario: a checklist in the issue body is the plan only if its author had write access.
 * A writer's issue starts with its open items as the writer's todos (no planning slice); an
 * outsider's issue, labelled by a writer, starts with none: its checklist stays data inside
 * the objective, and under the default policy the agent's plan will wait for a writer. A
 * `plan:` set in `.github/loopx.yml` decides for every goal instead.
 */
describe("e2e: a checklist in the issue body is the plan only if a writer wrote it", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  async function labelled(author: string, title: string): Promise<number> {
    const { data } = await h
      .as(author)
      .rest.issues.create({ owner: "acme", repo: "widgets", title, body: CHECKLIST });
    await h.as("wendy").rest.issues.addLabels({
      owner: "acme",
      repo: "widgets",
      issue_number: data.number,
      labels: ["loopx"],
    });
    await h.settle();
    return data.number;
  }

  it("a writer's open items become the writer's todos, so no plan tick is needed", async () => {
    const number = await labelled("wendy", "Ship a gear catalogue");
    const state = await h.store.findGoalByIssue(h.repo.id, number);
    if (!state) throw new Error("no goal");
    expect(state.todos.map((t) => [t.key, t.title, t.origin, t.status, t.kind])).toEqual([
      ["T1", "List the gears", "human", "ready", "task"],
      ["T2", "Publish the catalogue", "human", "ready", "task"],
    ]);
    expect(state.goal.plan).toBe("auto");
    const next = decide(state, new Date(), "agent");
    expect([next.route, next.todo]).toEqual(["run", "T1"]);
    // LoopX's checklist lists them; the author's own lines stay as they wrote them.
    const { data: issue } = await h
      .as("wendy")
      .rest.issues.get({ owner: "acme", repo: "widgets", issue_number: number });
    expect(parseChecklist(issue.body ?? "").map((i) => i.todo)).toEqual(["T1", "T2"]);
    expect(issue.body?.startsWith(CHECKLIST)).toBe(true);
  });

  it("an outsider's checklist is no plan: no todos, the agent plans, and its plan needs approval", async () => {
    const number = await labelled("rita", "Ship a gear catalogue, please");
    const state = await h.store.findGoalByIssue(h.repo.id, number);
    if (!state) throw new Error("no goal");
    expect(state.todos).toEqual([]);
    expect(state.goal.objective).toMatchObject({ author: "rita", authorTrusted: false });
    expect(state.goal.objective.body).toBe(CHECKLIST);
    expect(state.goal.plan).toBe("approve");
    expect(decide(state, new Date(), "agent").route).toBe("replan");
  });

  it("a writer's task list longer than a goal can start with starts nothing and says so", async () => {
    const items = Array.from({ length: MAX_INITIAL_TODOS + 1 }, (_, i) => `- [ ] Gear ${i + 1}`);
    const { data } = await h.as("wendy").rest.issues.create({
      owner: "acme",
      repo: "widgets",
      title: "Catalogue every gear, one by one",
      body: items.join("\n"),
    });
    await h.as("wendy").rest.issues.addLabels({
      owner: "acme",
      repo: "widgets",
      issue_number: data.number,
      labels: ["loopx"],
    });
    await h.settle();
    expect(await h.store.findGoalByIssue(h.repo.id, data.number)).toBeNull();
    const { data: comments } = await h
      .as("wendy")
      .rest.issues.listComments({ owner: "acme", repo: "widgets", issue_number: data.number });
    expect(comments.map((c) => c.body)).toEqual([
      expect.stringContaining(`has ${MAX_INITIAL_TODOS + 1} open items`),
    ]);
  });

  it("an explicit plan: in .github/loopx.yml applies to every goal, whoever opened the issue", async () => {
    const policyOf = async (author: string, plan: "approve" | "auto") => {
      h.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": `plan: ${plan}\n` }, "alice");
      const number = await labelled(author, `Catalogue under plan: ${plan}`);
      return (await h.store.findGoalByIssue(h.repo.id, number))?.goal.plan;
    };
    expect(await policyOf("rita", "auto")).toBe("auto");
    expect(await policyOf("wendy", "approve")).toBe("approve");
  });
});
