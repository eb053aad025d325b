import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";

/** Where the repository is now: the rename scenario moves it. */
const o = { owner: "acme", repo: "widgets" };

/** Scenario: the repository is renamed (goals follow), then the app is uninstalled (goals stop). */
describe("e2e: repository rename and uninstall", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  async function goal(title: string) {
    const { data } = await h.as("wendy").rest.issues.create({ ...o, title, body: "Go." });
    await h
      .as("wendy")
      .rest.issues.addLabels({ ...o, issue_number: data.number, labels: ["loopx"] });
    await h.settle();
    const g = await h.store.findGoalByIssue(h.repo.id, data.number);
    if (!g) throw new Error("no goal");
    return g.goal.id;
  }

  it("a renamed repository: the goal follows by the repository's id, and keeps writing there", async () => {
    const id = await goal("Rename-proof");
    h.sandbox.renameRepo("acme/widgets", "gadgets", "alice");
    o.repo = "gadgets";
    await h.settle();
    const state = await h.store.loadGoal(id);
    expect(state?.goal.repo).toMatchObject({ id: h.repo.id, owner: "acme", name: "gadgets" });
    // The status comment was re-rendered through the new name.
    const mark = h.sandbox.requests().length;
    await h.as("wendy").rest.issues.removeLabel({
      owner: "acme",
      repo: "gadgets",
      issue_number: state?.goal.issue.number ?? 0,
      name: "loopx",
    });
    await h.settle();
    expect((await h.store.loadGoal(id))?.goal.status).toBe("paused");
    const writes = h.sandbox
      .requests()
      .slice(mark)
      .filter((q) => q.operationId === "issues/update-comment");
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.every((q) => q.path.includes("/repos/acme/gadgets/"))).toBe(true);
  });

  it("uninstalled: every live goal of the installation stops, and nothing is written", async () => {
    const second = await goal("Survive an uninstall?");
    const installationId = (await h.store.loadGoal(second))?.goal.installationId ?? 0;
    const ids = await h.store.goalIdsByInstallation(installationId);
    // The paused goal of the rename scenario and this active one.
    expect(ids).toHaveLength(2);
    const mark = h.sandbox.requests().length;
    h.sandbox.uninstall(installationId, "alice");
    await h.settle();
    for (const id of ids) {
      const g = (await h.store.loadGoal(id))?.goal;
      expect(g?.status).toBe("stopped");
      expect(g?.statusReason).toContain("uninstalled by @alice");
    }
    expect(await h.store.goalIdsByInstallation(installationId)).toEqual([]);
    expect(h.sandbox.requests().slice(mark)).toEqual([]);
  });
});
