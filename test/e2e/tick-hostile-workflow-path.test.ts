import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { dispatchOneTick, finishRun, useTickWorkflow } from "../support/tick-workflow-runs.ts";

/** A hostile slice: plants a workflow (which would run with the repository's secrets) and claims progress. */
const PLANT = [
  "mkdir -p .github/workflows",
  "printf 'on: push\\njobs: {}\\n' > .github/workflows/x.yml",
  "echo gear > widgets.txt",
  `printf '%s' '{"outcome":"progress","handoff":{"done":"Added widgets","next":"More"}}' > "$LOOPX_RESULT"`,
].join(" && ");

/**
 * Scenario: the agent job commits a change under `.github/` without a gate approving
 * `write:.github`. The report refuses to push (the branch never reaches GitHub), fails the
 * job saying why, and tells the App, which keeps the refusal and records no pushed head.
 */
describe("e2e: an agent-side push to .github/ is refused", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
    useTickWorkflow(h, {
      config: "harness:\n  default: shell\n",
      vars: { LOOPX_SHELL_COMMAND: PLANT },
    });
  });
  afterAll(() => h.close());

  it("the report refuses the push, the branch has no such commit, the App records the refusal", async () => {
    const goal = await h.startGoal("Ship the widget list", ["List the widgets"]);
    const issue = goal.goal.issue.number;
    const run = await dispatchOneTick(h, issue);
    const { run: done, jobs, logs } = await finishRun(h, run.id);
    await h.settle();

    expect(jobs.ask?.conclusion, logs).toBe("success");
    expect(jobs.agent?.conclusion, logs).toBe("success");
    expect(jobs.report?.conclusion, logs).toBe("failure");
    expect(done.conclusion).toBe("failure");
    expect(jobs.report?.log).toContain(".github/workflows/x.yml");
    expect(jobs.report?.log).toContain("write:.github");
    expect(jobs.report?.summary).toContain("Push refused");

    // Nothing reached GitHub: not the branch, not the planted workflow.
    const branch = jobs.ask?.outputs.branch ?? "";
    expect(branch).toBe(`loopx/${issue}-T1`);
    const repo = h.sandbox.store.repoByName("acme", "widgets");
    const head = repo.branches.get(branch);
    if (head !== undefined) {
      expect(h.sandbox.store.git(repo).readFile(head, ".github/workflows/x.yml")).toBeNull();
    }
    const main = repo.branches.get("main") ?? "";
    expect(h.sandbox.store.git(repo).readFile(main, ".github/workflows/x.yml")).toBeNull();

    // The App knows: the refusal is evidence, and no head is believed pushed.
    const state = await h.store.loadGoal(goal.goal.id);
    const refused = state?.evidence.filter((e) => e.summary.startsWith("push refused: ")) ?? [];
    expect(refused).toHaveLength(1);
    expect(refused[0]?.summary).toContain(".github/workflows/x.yml");
    expect(
      state?.evidence.filter((e) => e.kind === "commit" && e.summary.startsWith("pushed ")),
    ).toEqual([]);
  }, 90_000);
});
