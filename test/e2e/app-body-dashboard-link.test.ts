import { addTodo } from "@loopx/core";
import { CHECKLIST_OPEN } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";

/** More open todos than the checklist lists, so it counts the rest and says where they are. */
const TODOS = CHECKLIST_OPEN + 12;
const PUBLIC = "https://loopx.example.com";

/**
 * Scenario: a goal's checklist lists the next open todos and counts the rest. Where the App
 * serves its dashboard at a known public address, that count links the goal's own page
 * there; otherwise (dashboard off, or no address) it names `loopx status`, and never links
 * a page nobody can reach.
 */
describe("e2e: the checklist's count of unlisted todos links the dashboard when there is one", () => {
  let h: Harness;
  let number: number;
  beforeAll(async () => {
    h = await startHarness();
    const items = Array.from({ length: TODOS }, (_, i) => `- [ ] Step ${i + 1}`);
    const { data } = await h.as("wendy").rest.issues.create({
      owner: "acme",
      repo: "widgets",
      title: "A long plan",
      body: ["Many small steps.", "", ...items].join("\n"),
    });
    number = data.number;
    await h.as("wendy").rest.issues.addLabels({
      owner: "acme",
      repo: "widgets",
      issue_number: number,
      labels: ["loopx"],
    });
    await h.settle();
  });
  afterAll(() => h.close());

  async function body(): Promise<string> {
    const { data } = await h
      .as("wendy")
      .rest.issues.get({ owner: "acme", repo: "widgets", issue_number: number });
    return data.body ?? "";
  }

  /** A writer's new todo rewrites the checklist under the App as it now runs. */
  async function rewrite(title: string): Promise<string> {
    const goal = await h.store.findGoalByIssue(h.repo.id, number);
    if (!goal) throw new Error("no goal");
    const r = await h.store.apply(goal.goal.id, (s, now) =>
      addTodo(
        s,
        { title },
        { actor: { kind: "human", login: "wendy", trusted: true }, now, newId: crypto.randomUUID },
      ),
    );
    if (!r.ok) throw new Error(r.refusal.message);
    await h.settle();
    return goal.goal.id;
  }

  it("with the dashboard off, the count names loopx status", async () => {
    const text = await body();
    expect(text).toContain(`and ${TODOS - CHECKLIST_OPEN} more todos`);
    expect(text).toContain("every todo: `loopx status`");
    expect(text).not.toContain("/loopx/goals/");
  });

  it("with a readonly dashboard but no public address, it still names loopx status", async () => {
    await h.restart({ dashboard: { mode: "readonly", session: async () => null } });
    await rewrite("One more step");
    const text = await body();
    expect(text).toContain(`and ${TODOS + 1 - CHECKLIST_OPEN} more todos`);
    expect(text).toContain("every todo: `loopx status`");
  });

  it("with the dashboard at a public address, the count links the goal's page there", async () => {
    await h.restart({
      dashboard: { mode: "readonly", session: async () => null, publicUrl: `${PUBLIC}/` },
    });
    const goalId = await rewrite("And another");
    const text = await body();
    expect(text).toContain(`and ${TODOS + 2 - CHECKLIST_OPEN} more todos`);
    expect(text).toContain(`[every todo on the dashboard](${PUBLIC}/loopx/goals/${goalId})`);
    expect(text).not.toContain("`loopx status`");
  });
});
