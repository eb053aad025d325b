import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { dispatchOneTick, finishRun, useTickWorkflow } from "../support/tick-workflow-runs.ts";

/**
 * A hostile slice: commits, points local `main` and a new `evil` branch at its commit, tries
 * to push both with whatever credentials the job left it, and claims progress.
 */
const ESCAPE = [
  "echo pwned > widgets.txt",
  "git add widgets.txt",
  "git -c user.name=x -c user.email=x@x commit -qm pwn",
  "git branch -f main HEAD",
  "git branch evil HEAD",
  "(env | grep -E 'ghs_|ACTIONS_ID_TOKEN' > leaked.log || true)",
  "(GIT_TERMINAL_PROMPT=0 git push origin HEAD:refs/heads/main > push-main.log 2>&1; echo $? >> push-main.log)",
  "(GIT_TERMINAL_PROMPT=0 git push origin evil > push-evil.log 2>&1; echo $? >> push-evil.log)",
  `printf '%s' '{"outcome":"progress","handoff":{"done":"Updated widgets","next":"More"}}' > "$LOOPX_RESULT"`,
].join(" && ");

/**
 * Scenario: the agent job tries to move `main` and create `evil` on GitHub. It holds no
 * credential that can push (no persisted token, no OIDC, a read-only GITHUB_TOKEN it never
 * sees), and the report pushes only the tick's `loopx/*` branch from the bundle.
 */
describe("e2e: an agent-side push to a non-loopx branch is refused", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
    useTickWorkflow(h, {
      config: "harness:\n  default: shell\n",
      vars: { LOOPX_SHELL_COMMAND: ESCAPE },
    });
  });
  afterAll(() => h.close());

  it("main and evil are untouched on GitHub; only loopx/<issue>-T1 is pushed", async () => {
    const goal = await h.startGoal("Ship the widget list", ["List the widgets"]);
    const issue = goal.goal.issue.number;
    const repo = h.sandbox.store.repoByName("acme", "widgets");
    const mainBefore = repo.branches.get("main");
    const run = await dispatchOneTick(h, issue);
    const { run: done, jobs, logs } = await finishRun(h, run.id);
    await h.settle();
    expect(done.conclusion, logs).toBe("success");
    expect(jobs.report?.log).toContain(`loopx/${issue}-T1`);

    expect(repo.branches.get("main")).toBe(mainBefore);
    expect([...repo.branches.keys()].sort()).toEqual([`loopx/${issue}-T1`, "main"]);
    // The slice's own record of its attempts, carried on the todo branch: both refused.
    const head = repo.branches.get(`loopx/${issue}-T1`) ?? "";
    const git = h.sandbox.store.git(repo);
    for (const file of ["push-main.log", "push-evil.log"]) {
      const log = git.readFile(head, file) ?? "";
      expect(log.trim().split("\n").at(-1), log).not.toBe("0");
      // Refused before any ref moved: the job left no credential to offer.
      expect(log).toContain("could not read Username");
    }
    expect(git.readFile(head, "leaked.log")).toBe("");
    expect(git.readFile(head, "widgets.txt")).toBe("pwned\n");
  }, 90_000);
});
