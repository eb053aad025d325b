import { readKey } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";

const o = { owner: "acme", repo: "widgets" } as const;

/** Scenario: the goal issue's state — closed by a person, reopened, unlabelled; and an invalid config. */
describe("e2e: issue state drives the goal", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      files: { ".github/loopx.yml": "label: loopx\nbudgets:\n  goal:\n    usd: -5\n" },
    });
  });
  afterAll(() => h.close());

  async function goalIssue(title: string) {
    const { data } = await h.as("wendy").rest.issues.create({ ...o, title, body: "Do it." });
    await h
      .as("wendy")
      .rest.issues.addLabels({ ...o, issue_number: data.number, labels: ["loopx"] });
    await h.settle();
    const goal = await h.store.findGoalByIssue(h.repo.id, data.number);
    if (!goal) throw new Error("no goal");
    return { number: data.number, id: goal.goal.id };
  }
  const status = async (id: string) => (await h.store.loadGoal(id))?.goal;
  const comments = async (n: number) =>
    (await h.as("wendy").rest.issues.listComments({ ...o, issue_number: n })).data;

  it("an invalid .github/loopx.yml: the goal starts paused and the status comment names the path and the reason", async () => {
    const g = await goalIssue("Invalid config");
    const goal = await status(g.id);
    expect(goal?.status).toBe("paused");
    expect(goal?.statusReason).toContain("`.github/loopx.yml` is invalid");
    const sticky = (await comments(g.number)).find((c) => readKey(c.body ?? "") === "status");
    expect(sticky?.body).toContain("budgets.goal.usd");
    // Rendered text neutralises `/loopx` (a ZWSP after the slash), so match the words.
    expect(sticky?.body).toContain("loopx resume");
  });

  it("closed by a person: the goal stops; reopened: it stays stopped and one comment asks for /loopx resume", async () => {
    // A valid config for the rest of the scenario.
    h.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": "label: loopx\n" }, "alice");
    await h.settle();
    const g = await goalIssue("Close me");
    expect((await status(g.id))?.status).toBe("active");
    await h.as("alice").rest.issues.update({ ...o, issue_number: g.number, state: "closed" });
    await h.settle();
    const stopped = await status(g.id);
    expect(stopped?.status).toBe("stopped");
    expect(stopped?.statusReason).toContain("issue closed by @alice");

    for (let i = 0; i < 2; i++) {
      await h.as("alice").rest.issues.update({ ...o, issue_number: g.number, state: "open" });
      await h.settle();
      await h.as("alice").rest.issues.update({ ...o, issue_number: g.number, state: "closed" });
      await h.settle();
    }
    await h.as("alice").rest.issues.update({ ...o, issue_number: g.number, state: "open" });
    await h.settle();
    expect((await status(g.id))?.status).toBe("stopped");
    const asks = (await comments(g.number)).filter((c) =>
      readKey(c.body ?? "")?.startsWith("reopened:"),
    );
    expect(asks).toHaveLength(1);
    expect(asks[0]?.body).toContain("/loopx resume");
  });

  it("the label removed by a writer pauses the goal; by someone without write access, nothing", async () => {
    const g = await goalIssue("Unlabel me");
    await h.as("tom").rest.issues.removeLabel({ ...o, issue_number: g.number, name: "loopx" });
    await h.settle();
    expect((await status(g.id))?.status).toBe("active");
    await h.as("tom").rest.issues.addLabels({ ...o, issue_number: g.number, labels: ["loopx"] });
    await h.settle();
    await h.as("wendy").rest.issues.removeLabel({ ...o, issue_number: g.number, name: "loopx" });
    await h.settle();
    const paused = await status(g.id);
    expect(paused?.status).toBe("paused");
    expect(paused?.statusReason).toContain("removed by @wendy");
    // Relabelling resumes the same goal (start-goal.ts).
    await h.as("wendy").rest.issues.addLabels({ ...o, issue_number: g.number, labels: ["loopx"] });
    await h.settle();
    expect((await status(g.id))?.status).toBe("active");
  });
});
