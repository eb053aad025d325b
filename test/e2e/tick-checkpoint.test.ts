import { readFileSync, writeFileSync } from "node:fs";
import { AskResponse } from "@loopx/core";
import { dbOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { playTick } from "../support/tick-phases.ts";

/**
 * Scenario: the agent job started late (queued behind other jobs, a slow install), so its
 * slice would outlive the tick's lease: a result after it would be refused and the work
 * lost. The ask's answer names a checkpoint (the lease's end less the report's share); the
 * action stops the slice there, well before its 30-minute wall limit, keeps its work tree,
 * pushes it through the usual guarded push, and says in the handoff it was cut at the
 * checkpoint. The next tick's brief carries that handoff.
 */
describe("e2e: a slice that outlives its deadline is cut at the checkpoint, its work pushed", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness({ onPostgres: true });
  });
  afterAll(() => h.close());

  it("pushes the work in progress with a handoff, and the next brief carries it", async () => {
    const goal = await h.startGoal("Index the archive", ["Build the index"]);
    const issue = goal.goal.issue.number;
    let briefed: unknown = null;
    let checkpoint: Date | null = null;
    const started = Date.now();
    const tick = await playTick(h, {
      goal: issue,
      runId: 3601,
      agent: {
        harness: "shell",
        "shell-command": "echo half > half.txt; while :; do echo indexing; sleep 0.2; done",
      },
      beforeAgent: async (briefPath) => {
        const raw = JSON.parse(readFileSync(briefPath, "utf8"));
        briefed = raw;
        // The report's share of the lease is the App's `reportMinutes` (10 by default).
        const lease = new Date(raw.leaseExpiresAt).getTime();
        expect(new Date(raw.checkpointAt).getTime()).toBe(lease - 10 * 60_000);
        expect(raw.briefText).toContain(`Checkpoint: ${raw.checkpointAt}`);
        // The job started late: only seconds are left before the checkpoint.
        checkpoint = new Date(Date.now() + 3000);
        writeFileSync(
          briefPath,
          JSON.stringify({ ...raw, checkpointAt: checkpoint.toISOString() }),
        );
      },
    });
    expect(briefed).not.toBeNull();
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(tick.agent?.outputs["slice-outcome"], tick.agent?.stdout).toBe("checkpoint");
    expect(tick.report?.code, tick.report?.stdout).toBe(0);
    expect(tick.report?.outputs).toMatchObject({ outcome: "failed", pushed: "true" });

    // The work in progress is on the todo branch, for the next tick to continue.
    const branch = tick.ask.outputs.branch ?? "";
    const repo = h.sandbox.store.repoByName("acme", "widgets");
    const head = repo.branches.get(branch) ?? "";
    expect(h.sandbox.store.git(repo).readFile(head, "half.txt")).toBe("half\n");

    const after = await h.store.loadGoal(goal.goal.id);
    const done = after?.ticks.find((t) => t.id === tick.tickId);
    expect(done).toMatchObject({ outcome: "failed", failure: "timeout", slotSpent: false });
    const handoff = after?.handoffs.find((x) => x.tickId === tick.tickId);
    const cutAt = (checkpoint as Date | null)?.toISOString() ?? "";
    expect(handoff?.done).toContain(`[checkpoint] cut at the tick's checkpoint (${cutAt})`);

    // The next tick continues from it: its brief carries the handoff.
    // A cut slice is a stall, so the goal backs off: the next wake is simply come.
    await dbOf(h.store).execute(
      sql`UPDATE goals SET backoff = jsonb_set(backoff, '{until}', 'null') WHERE id = ${goal.goal.id}`,
    );
    const asked = await h.post("/api/v1/ticks", { goal: issue }, await h.token(3602));
    expect(asked.status).toBe(200);
    const next = AskResponse.parse(asked.body);
    if (!next.run) throw new Error(`the next tick did not run: ${next.reason}`);
    expect(next.brief.lastHandoff?.tickId).toBe(tick.tickId);
    expect(next.brief.lastHandoff?.done).toContain("[checkpoint] cut at the tick's checkpoint");
    expect(next.briefText).toContain("[checkpoint] cut at the tick");
  }, 120_000);
});
