import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { isAwaitingPersonPush, isAwaitingPullRequest } from "@loopx/core";
import { readKey } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { playTick } from "../support/tick-phases.ts";

const CHANGE = [
  "mkdir -p .github/workflows",
  "printf 'on: push\\njobs:\\n  t:\\n    runs-on: ubuntu-latest\\n    strategy: {matrix: {node: [20, 22]}}\\n    steps: [{run: npm test}]\\n' > .github/workflows/ci.yml",
  `printf '%s' '{"outcome":"completed","continuation":{"kind":"goal_active"},"handoff":{"done":"CI on Node 20 and 22","next":"-"}}' > "$LOOPX_RESULT"`,
].join(" && ");

const run = promisify(execFile);

/**
 * Scenario: the slice changes a workflow, which GitHub refuses from the App whatever a gate
 * says, so the todo goes to people as a patch at once (no gate to ask first) and waits. The
 * maintainer does what the comment says, verbatim — its shell block, in a clone of their
 * own — and LoopX opens the todo's pull request from their push. A push by anyone else, or
 * to a branch whose todo waits for no one, opens nothing.
 */
describe("e2e: a person pushes the workflow patch LoopX could not push, and LoopX opens its PR", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
    h.sandbox.push("acme/widgets", "main", {
      ".github/loopx.yml": "harness:\n  default: shell\nvalidationCommand: npm test\n",
      // A passing validation: the slice that claims completion did finish its todo.
      "package.json": '{"name":"widgets","scripts":{"test":"true"}}\n',
    });
  });
  afterAll(() => h.close());

  it("the patch comment's own commands deliver the change; its PR opens from that push", async () => {
    const goal = await h.startGoal("Test on current Node", ["Run CI on Node 20 and 22", "Docs"]);
    const issue = goal.goal.issue.number;
    const tick = await playTick(h, {
      goal: issue,
      runId: 7701,
      agent: { "shell-command": CHANGE },
    });
    expect(tick.report?.errors.join()).toContain("the patch is on the goal issue");
    const branch = tick.ask.outputs.branch ?? "";
    expect(branch).toBe(`loopx/${issue}-T1`);
    await h.settle();

    let state = await h.store.loadGoal(goal.goal.id);
    const t1 = state?.todos.find((t) => t.key === "T1");
    expect(t1 && isAwaitingPersonPush(t1)).toBe(true);
    expect(state?.gates).toEqual([]);

    const comments = h.sandbox.issue("acme/widgets", issue).comments_list;
    const body = String(
      comments.find((c) => readKey(String(c.body ?? ""))?.startsWith("patch:"))?.body ?? "",
    );
    const patch = /````*diff\n([\s\S]*?)\n````*\n/.exec(body)?.[1];
    const script = /```sh\n([\s\S]*?)\n```/.exec(body)?.[1];
    if (!patch || !script)
      throw new Error(`the patch comment has no patch or no commands:\n${body}`);

    // A bot's push to the branch is not a person's act: nothing opens.
    h.sandbox.push("acme/widgets", branch, { "x.txt": "x\n" }, "ci-helper[bot]");
    await h.settle();
    expect(openPulls()).toEqual([]);
    await run("git", ["--git-dir", h.sandbox.gitDir("acme/widgets"), "branch", "-D", branch]);

    // The maintainer saves the block as it shows on GitHub and runs the comment's commands.
    const dir = mkdtempSync(join(tmpdir(), "loopx-maintainer-"));
    const url = h.sandbox.cloneUrl("acme/widgets", h.sandbox.createUserToken("alice"));
    await run("git", ["clone", "--quiet", url, dir]);
    writeFileSync(join(dir, "slice.patch"), `${patch}\n`);
    await run("bash", ["-euo", "pipefail", "-c", script], {
      cwd: dir,
      env: {
        ...process.env,
        GIT_COMMITTER_NAME: "Alice",
        GIT_COMMITTER_EMAIL: "alice@example.com",
      },
    });
    const pushed = (await run("git", ["rev-parse", "HEAD"], { cwd: dir })).stdout.trim();
    await h.settle();

    const pulls = openPulls();
    expect(pulls).toEqual([{ head: branch, sha: pushed, by: "loopx[bot]" }]);
    state = await h.store.loadGoal(goal.goal.id);
    const after = state?.todos.find((t) => t.key === "T1");
    expect(after && isAwaitingPullRequest(after)).toBe(true);
    expect(state?.evidence.some((e) => e.sha === pushed && e.summary.includes("@alice"))).toBe(
      true,
    );

    // T2 waits for no one's push: a person pushing its branch opens nothing.
    h.sandbox.push("acme/widgets", `loopx/${issue}-T2`, { "docs.md": "d\n" }, "alice");
    await h.settle();
    expect(openPulls().map((p) => p.head)).toEqual([branch]);
  }, 120_000);

  function openPulls(): { head: string; sha: string; by: string }[] {
    const repo = h.sandbox.store.repoByName("acme", "widgets");
    return [...h.sandbox.store.pulls.values()]
      .filter((p) => p.repoId === repo.id && !p.merged)
      .map((p) => ({
        head: p.headRef,
        sha: p.headSha,
        by: h.sandbox.store.user(h.sandbox.store.issueByNumber(repo.id, p.number).userId).login,
      }));
  }
});
