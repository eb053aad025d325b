import { readFileSync } from "node:fs";
import { HarnessResult } from "@loopx/core";
import { bash, type ScriptedAnthropic, startScriptedAnthropic } from "@loopx/sandbox/models";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { playTick } from "../support/tick-phases.ts";

const API_KEY = "sk-ant-turns-0123456789abcdef";

/**
 * Scenario: the REAL `claude` CLI keeps calling tools (a scripted model that never stops) and
 * runs into the App's turn limit: `error_max_turns` is a turn-limit outcome, not success; the
 * slice's reported cost is what the goal is charged.
 */
describe("e2e: the turn limit stops a runaway claude slice", () => {
  let h: TickHarness;
  let model: ScriptedAnthropic;
  beforeAll(async () => {
    model = await startScriptedAnthropic({
      turns: Array.from({ length: 8 }, (_, i) => ({
        content: [bash(`echo step${i} >> steps.log`)],
      })),
    });
    h = await startTickHarness({ api: { maxTurns: 3 } });
    h.sandbox.push("acme/widgets", "main", {
      ".github/loopx.yml": "harness:\n  default: claude-code\n  allowedTools: [Bash]\n",
    });
  });
  afterAll(async () => {
    await h?.close();
    await model?.close();
  });

  it("is reported as turn_limit after three turns and charged what it spent", async () => {
    const goal = await h.startGoal("Walk the steps", ["Log every step"]);
    const before = await h.store.loadGoal(goal.goal.id);
    if (!before) throw new Error("no goal");
    const tick = await playTick(h, {
      goal: goal.goal.issue.number,
      runId: 3301,
      agentEnv: { ANTHROPIC_API_KEY: API_KEY, ANTHROPIC_BASE_URL: model.url },
    });
    expect(tick.ask.outputs.harness).toBe("claude-code");
    expect(tick.agent?.outputs["slice-outcome"], tick.agent?.stdout).toBe("turn_limit");
    expect(model.turnsServed()).toBe(3);
    expect(tick.report?.code, tick.report?.stdout).toBe(0);
    expect(tick.report?.summary).toContain("failed (turn_limit)");
    expect(tick.report?.summary).toContain("turn limit of 3 reached");

    const sent = HarnessResult.parse(
      JSON.parse(readFileSync(tick.agent?.outputs["result-file"] ?? "", "utf8")),
    );
    expect(sent.cost.usd).toBeGreaterThan(0);
    const after = await h.store.loadGoal(goal.goal.id);
    const charged = after?.ticks.find((t) => t.id === tick.tickId);
    expect(charged).toMatchObject({ outcome: "failed", failure: "turn_limit", slotSpent: false });
    // USD and tokens are the metering proxy's count, not the cap. No workflow run stands
    // behind these calls, so the jobs API has no minutes to give: those are the cap's.
    expect(sent.metering).toBe("proxy");
    expect(charged?.cost).toEqual({
      ...sent.cost,
      runnerMinutes: before.goal.tickCap.runnerMinutes,
    });
    expect(after?.goal.spent.usd).toBeCloseTo(before.goal.spent.usd + sent.cost.usd, 10);
    expect(after?.goal.spent.tokens).toBe(before.goal.spent.tokens + sent.cost.tokens);
    const handoff = after?.handoffs.find((x) => x.tickId === tick.tickId);
    expect(handoff?.done).toContain("[turn_limit] turn limit of 3 reached");

    // The three steps it took are on the todo branch as work in progress.
    const repo = h.sandbox.store.repoByName("acme", "widgets");
    const head = repo.branches.get(tick.ask.outputs.branch ?? "") ?? "";
    expect(h.sandbox.store.git(repo).readFile(head, "steps.log")).toBe("step0\nstep1\nstep2\n");
  }, 90_000);
});
