import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { approveGate, openGate } from "@loopx/core";
import { readKey } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { playTick } from "../support/tick-phases.ts";

const CHANGE = [
  "mkdir -p .github/workflows",
  "printf 'on: push\\njobs:\\n  t:\\n    runs-on: ubuntu-latest\\n    steps: [{run: npm test}]\\n' > .github/workflows/ci.yml",
  "echo 'CI runs the tests.' >> README.md",
  `printf '%s' '{"outcome":"progress","handoff":{"done":"Added CI","next":"-"}}' > "$LOOPX_RESULT"`,
].join(" && ");

/**
 * Scenario: a gate approved `write:.github`, and the slice adds a workflow. The App's token can
 * never push workflow files (it has no `workflows` permission, and GitHub refuses them), so the
 * report job pushes nothing and hands the change back: the goal issue gets the patch, which a
 * person can apply as it stands (once the zero-width spaces are stripped, as the comment says).
 */
describe("e2e: a workflow change under an approved gate comes back as a patch", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
    h.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": "harness:\n  default: shell\n" });
  });
  afterAll(() => h.close());

  it("nothing is pushed; the issue shows the patch, once, and it applies", async () => {
    const goal = await h.startGoal("Add CI", ["Run the tests on every push"]);
    const ctx = (now: Date) => ({ now, newId: () => crypto.randomUUID() });
    const opened = await h.store.apply(goal.goal.id, (s, now) =>
      openGate(
        s,
        { question: "May I add a CI workflow?", scopes: ["write:.github"] },
        { ...ctx(now), actor: { kind: "app" } },
      ),
    );
    if (!opened.ok) throw new Error(opened.refusal.message);
    const approved = await h.store.apply(goal.goal.id, (s, now) =>
      approveGate(
        s,
        { gate: "G1" },
        { ...ctx(now), actor: { kind: "human", login: "alice", trusted: true } },
      ),
    );
    if (!approved.ok) throw new Error(approved.refusal.message);

    const tick = await playTick(h, {
      goal: goal.goal.issue.number,
      runId: 5501,
      agent: { "shell-command": CHANGE },
    });
    expect(tick.report?.code).not.toBe(0);
    expect(tick.report?.errors.join()).toContain("the patch is on the goal issue");
    const repo = h.sandbox.store.repoByName("acme", "widgets");
    expect(repo.branches.get(tick.ask.outputs.branch ?? "")).toBeUndefined();
    await h.settle();

    const comments = h.sandbox.issue("acme/widgets", goal.goal.issue.number).comments_list;
    const patches = comments.filter((c) => readKey(String(c.body ?? ""))?.startsWith("patch:"));
    expect(patches).toHaveLength(1);
    const body = String(patches[0]?.body ?? "");
    expect(body).toContain("GitHub refuses those from the LoopX App");
    expect(body).toContain("`.github/workflows/ci.yml`");

    // What the comment says to do: save the block, strip the zero-width spaces, git am.
    const block = /````*diff\n([\s\S]*?)\n````*\n/.exec(body)?.[1] ?? "";
    const dir = mkdtempSync(join(tmpdir(), "loopx-apply-"));
    // Asynchronous: the sandbox serves git from this very process.
    const git = async (...args: string[]) =>
      (
        await promisify(execFile)("git", args, {
          cwd: dir,
          encoding: "utf8",
          env: {
            ...process.env,
            GIT_COMMITTER_NAME: "Alice",
            GIT_COMMITTER_EMAIL: "alice@example.com",
          },
        })
      ).stdout;
    await git(
      "clone",
      "--quiet",
      h.sandbox.cloneUrl("acme/widgets", h.sandbox.createUserToken("alice")),
      dir,
    );
    writeFileSync(join(dir, "slice.patch"), `${block.replaceAll("\u200b", "")}\n`);
    await git("am", "--quiet", "slice.patch");
    expect(await git("show", "HEAD:.github/workflows/ci.yml")).toContain("runs-on: ubuntu-latest");
    expect(await git("show", "HEAD:README.md")).toContain("CI runs the tests.");
  }, 120_000);
});
