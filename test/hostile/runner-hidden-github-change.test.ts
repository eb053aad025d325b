import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { dispatchOneTick, finishRun, useTickWorkflow } from "../support/tick-workflow-runs.ts";

const GIT = "git -c user.name=agent -c user.email=agent@example.com";
const RESULT = `printf '%s' '{"outcome":"progress","handoff":{"done":"Tidied up","next":"-"}}' > "$LOOPX_RESULT"`;

/** A side branch merged back, the workflow added in the merge commit itself (in neither parent). */
const IN_A_MERGE = [
  `${GIT} checkout --quiet -b side`,
  `echo side > side.txt && ${GIT} add side.txt && ${GIT} commit --quiet -m side`,
  `${GIT} checkout --quiet -`,
  `${GIT} merge --quiet --no-ff --no-commit side`,
  "mkdir -p .github/workflows && printf 'on: push\\njobs: {}\\n' > .github/workflows/merged.yml",
  `${GIT} add .github && ${GIT} commit --quiet -m 'Merge side'`,
  RESULT,
].join(" && ");

/** Names `git diff --name-only` prints quoted: non-ASCII, a double quote, a tab. */
const QUOTED = [
  `mkdir -p '.github/wörk"flows'`,
  `printf 'on: push\\n' > '.github/wörk"flows/a\tb.yml'`,
  "echo tidy > tidy.txt",
  RESULT,
].join(" && ");

/**
 * Scenario: through the shipped workflow on the sandbox's runner, a slice without a
 * `write:.github` gate smuggles a `.github/` change — in a merge commit, or under a path git
 * prints quoted. The report job guards the tree it rebuilds, refuses the push, and tells the
 * App; nothing under `.github/` reaches GitHub.
 */
describe("hostile: on the runner, a .github/ change hidden in a merge or a quoted name is refused", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
    useTickWorkflow(h, { config: "harness:\n  default: shell\n" });
  });
  afterAll(() => h.close());

  async function smuggle(command: string, path: string) {
    h.sandbox.runner.vars = { ...h.sandbox.runner.vars, LOOPX_SHELL_COMMAND: command };
    const goal = await h.startGoal(`Tidy ${path}`, ["Tidy up"]);
    const run = await dispatchOneTick(h, goal.goal.issue.number);
    const { jobs, logs } = await finishRun(h, run.id, 120_000);
    await h.settle();

    expect(jobs.agent?.conclusion, logs).toBe("success");
    expect(jobs.report?.conclusion, logs).toBe("failure");
    expect(jobs.report?.summary).toContain("Push refused");
    const repo = h.sandbox.store.repoByName("acme", "widgets");
    const head = repo.branches.get(jobs.ask?.outputs.branch ?? "");
    expect(head, logs).toBeUndefined();
    const state = await h.store.loadGoal(goal.goal.id);
    const refused = state?.evidence.filter((e) => e.summary.startsWith("push refused: ")) ?? [];
    expect(refused).toHaveLength(1);
    expect(refused[0]?.summary).toContain(path);
  }

  it("in a merge commit", async () => {
    await smuggle(IN_A_MERGE, ".github/workflows/merged.yml");
  }, 150_000);

  it("under a name git prints quoted", async () => {
    await smuggle(QUOTED, '.github/wörk"flows/a\tb.yml');
  }, 150_000);
});
