import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addTodo, openGate } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { giveToRunner } from "../../packages/sandbox/src/index.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { dispatchOneTick, finishRun, useTickWorkflow } from "../support/tick-workflow-runs.ts";

/** Written by the shell harness if it ever starts. */
// The runner user's own directory, so a harness that did start could leave its mark.
const MARKER = join(giveToRunner(mkdtempSync(join(tmpdir(), "loopx-wait-"))), "harness-started");

/**
 * Scenario: the goal's only todo waits behind an open gate. loopx-tick.yml is dispatched →
 * `ask` answers run=false → the agent and report jobs are skipped: no harness starts, no branch
 * is made, and the App makes no GitHub request for the tick.
 */
describe("e2e: a wait tick through the workflow", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
    useTickWorkflow(h, {
      config: "harness:\n  default: shell\n",
      vars: { LOOPX_SHELL_COMMAND: `touch ${MARKER}` },
    });
  });
  afterAll(() => h.close());

  it("ask says run=false; agent and report are skipped; zero GitHub requests from the App", async () => {
    const goal = await h.startGoal("Rotate the deploy keys");
    const issue = goal.goal.issue.number;
    const by = { actor: { kind: "human" as const, login: "alice", trusted: true } };
    const newId = () => crypto.randomUUID();
    // The only todo needs `write:.github`, and the gate asking for it is still open.
    const added = await h.store.apply(goal.goal.id, (s, now) =>
      addTodo(
        s,
        { title: "Replace the deploy key in the workflow", requiredScopes: ["write:.github"] },
        { ...by, now, newId },
      ),
    );
    if (!added.ok) throw new Error(added.refusal.message);
    const gated = await h.store.apply(goal.goal.id, (s, now) =>
      openGate(
        s,
        { question: "May the agent edit the deploy workflow?", scopes: ["write:.github"] },
        { ...by, now, newId },
      ),
    );
    if (!gated.ok) throw new Error(gated.refusal.message);
    await h.settle();

    const version = gated.state.goal.version;
    const waitTick = async () => {
      const run = await dispatchOneTick(h, issue);
      const from = h.sandbox.requests().length;
      const finished = await finishRun(h, run.id);
      await h.settle();
      // What the App asked of GitHub during the tick (the runner's OIDC requests aside).
      const made = h.sandbox
        .requests()
        .slice(from)
        .filter((r) => !r.path.startsWith("/.well-known/") && !r.path.startsWith("/_services/"));
      return { ...finished, made };
    };

    // The first tick after a while reads the repository's facts (default branch, config),
    // which the App then caches; it writes nothing.
    const cold = await waitTick();
    expect(cold.made.filter((r) => r.method !== "GET" || r.contentCreating)).toEqual([]);
    expect(cold.made.map((r) => r.operationId)).toEqual(expect.arrayContaining(["repos/get"]));

    const { run: done, jobs, logs, made } = await waitTick();
    expect(done.conclusion, logs).toBe("success");
    expect(jobs.ask?.conclusion).toBe("success");
    expect(jobs.ask?.outputs.run).toBe("false");
    expect(jobs.agent?.conclusion).toBe("skipped");
    expect(jobs.report?.conclusion).toBe("skipped");
    // One line: why, and when it wakes next.
    expect(jobs.ask?.summary.trim().split("\n")).toHaveLength(1);
    expect(jobs.ask?.summary).toContain(`LoopX #${issue}: ask_human`);
    // Zero GitHub requests from the App: no read, no write.
    expect(made.map((r) => `${r.method} ${r.path}`)).toEqual([]);

    // No harness ran, no todo branch was made, and the goal is unchanged.
    expect(existsSync(MARKER)).toBe(false);
    const repo = h.sandbox.store.repoByName("acme", "widgets");
    expect([...repo.branches.keys()].filter((b) => b.startsWith("loopx/"))).toEqual([]);
    const after = await h.store.loadGoal(goal.goal.id);
    expect(after?.goal.version).toBe(version);
    expect(after?.ticks).toHaveLength(0);
  }, 90_000);
});
