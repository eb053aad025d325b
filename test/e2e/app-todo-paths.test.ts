import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { comment, goal, replyTo, startGoal } from "../support/goal-steps.ts";

const repo = { owner: "acme", repo: "widgets" };

/**
 * Scenario: a writer declares what a todo touches, as `paths:` on `/loopx todo add` and on an
 * item of the issue's own task list; the todos carry those globs (what lets a `parallel` goal
 * run them side by side). A glob that is not relative to the repository root is refused with
 * a reply that says what would work: the command adds nothing, the task list starts no goal.
 */
describe("e2e: a person declares a todo's paths", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it("/loopx todo add … paths: carries the globs; a path outside the repository is refused", async () => {
    const { number, goalId } = await startGoal(h, "alice");
    await comment(h, "alice", number, "/loopx todo add Write the docs paths: docs/**, README.md");
    await comment(h, "alice", number, "/loopx todo add Tidy everything");
    const bad = await comment(h, "alice", number, "/loopx todo add Read the host paths: /etc/**");
    const state = await goal(h, goalId);
    expect(state.todos.map((t) => [t.key, t.title, t.paths])).toEqual([
      ["T1", "Write the docs", ["docs/**", "README.md"]],
      ["T2", "Tidy everything", []],
    ]);
    const reply = (await replyTo(h, number, bad))?.body ?? "";
    expect(reply).toContain('"/etc/**" is not a path in this repository');
    expect(reply).toContain("from the repository root");
  }, 60_000);

  it("a writer's task-list items carry their paths; a refused one starts nothing and says why", async () => {
    const body = [
      "Ship the catalogue.",
      "",
      "- [ ] Write the docs paths: `docs/**`, `README.md`",
      "- [ ] Build the API paths: src/api/**",
      "- [ ] Tidy up",
    ].join("\n");
    const { data } = await h.as("wendy").rest.issues.create({ ...repo, title: "Catalogue", body });
    await h
      .as("wendy")
      .rest.issues.addLabels({ ...repo, issue_number: data.number, labels: ["loopx"] });
    await h.settle();
    const state = await h.store.findGoalByIssue(h.repo.id, data.number);
    expect(state?.todos.map((t) => [t.key, t.title, t.paths])).toEqual([
      ["T1", "Write the docs", ["docs/**", "README.md"]],
      ["T2", "Build the API", ["src/api/**"]],
      ["T3", "Tidy up", []],
    ]);

    const { data: refused } = await h.as("wendy").rest.issues.create({
      ...repo,
      title: "Catalogue elsewhere",
      body: "- [ ] Write the docs paths: docs/**\n- [ ] Copy the shared files paths: ../shared/**",
    });
    await h
      .as("wendy")
      .rest.issues.addLabels({ ...repo, issue_number: refused.number, labels: ["loopx"] });
    await h.settle();
    expect(await h.store.findGoalByIssue(h.repo.id, refused.number)).toBeNull();
    const { data: comments } = await h
      .as("wendy")
      .rest.issues.listComments({ ...repo, issue_number: refused.number });
    expect(comments.map((c) => c.body)).toEqual([
      expect.stringMatching(
        /Copy the shared files paths: \.\.\/shared\/\*\*.*"\.\.\/shared\/\*\*" is not a path in this repository.*Nothing was started/s,
      ),
    ]);
  }, 60_000);
});
