import { readFileSync } from "node:fs";
import { HarnessResult } from "@loopx/core";
import { bash, type ScriptedAnthropic, startScriptedAnthropic } from "@loopx/sandbox/models";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { playTick } from "../support/tick-phases.ts";

const API_KEY = "sk-ant-usd-0123456789abcdef";
/** A million input tokens a turn: dollars, at any Claude price. */
const EXPENSIVE = { input_tokens: 1_000_000, output_tokens: 1000 };

/**
 * Scenario: the REAL `claude` CLI burns through the slice's USD limit (the workflow's
 * `max-usd`, which lowers the App's cap). The adapter stops it from the streamed usage before
 * the next tool call; it is reported as budget_exceeded and charged what it spent.
 */
describe("e2e: the USD limit stops an expensive claude slice", () => {
  let h: TickHarness;
  let model: ScriptedAnthropic;
  beforeAll(async () => {
    model = await startScriptedAnthropic({
      turns: ["one", "two", "three"].map((n) => ({
        content: [bash(`echo ${n} >> spend.log`)],
        usage: EXPENSIVE,
      })),
    });
    h = await startTickHarness();
    h.sandbox.push("acme/widgets", "main", {
      ".github/loopx.yml": "harness:\n  default: claude-code\n  allowedTools: [Bash]\n",
    });
  });
  afterAll(async () => {
    await h?.close();
    await model?.close();
  });

  it("is reported as budget_exceeded, and charged its reported cost", async () => {
    const goal = await h.startGoal("Summarise the corpus", ["Read everything"]);
    const before = await h.store.loadGoal(goal.goal.id);
    if (!before) throw new Error("no goal");
    const tick = await playTick(h, {
      goal: goal.goal.issue.number,
      runId: 3401,
      ask: { "max-usd": "0.5" },
      agentEnv: { ANTHROPIC_API_KEY: API_KEY, ANTHROPIC_BASE_URL: model.url },
    });
    expect(tick.agent?.outputs["slice-outcome"], tick.agent?.stdout).toBe("over_budget");
    expect(tick.report?.code, tick.report?.stdout).toBe(0);
    expect(tick.report?.summary).toContain("failed (budget_exceeded)");
    expect(tick.report?.summary).toContain("over the slice limit of $0.5");

    const sent = HarnessResult.parse(
      JSON.parse(readFileSync(tick.agent?.outputs["result-file"] ?? "", "utf8")),
    );
    expect(sent.cost.usd).toBeGreaterThan(0.5);
    expect(sent.cost.tokens).toBeGreaterThanOrEqual(EXPENSIVE.input_tokens);
    const after = await h.store.loadGoal(goal.goal.id);
    const charged = after?.ticks.find((t) => t.id === tick.tickId);
    expect(charged).toMatchObject({
      outcome: "failed",
      failure: "budget_exceeded",
      slotSpent: false,
    });
    // USD and tokens are the metering proxy's count, not the cap. No workflow run stands
    // behind these calls, so the jobs API has no minutes to give: those are the cap's.
    expect(sent.metering).toBe("proxy");
    expect(charged?.cost).toEqual({
      ...sent.cost,
      runnerMinutes: before.goal.tickCap.runnerMinutes,
    });
    expect(after?.goal.spent.usd).toBeCloseTo(before.goal.spent.usd + sent.cost.usd, 10);
    const handoff = after?.handoffs.find((x) => x.tickId === tick.tickId);
    expect(handoff?.done).toContain("[over_budget]");
    // Stopped before the second tool call ran.
    const repo = h.sandbox.store.repoByName("acme", "widgets");
    const head = repo.branches.get(tick.ask.outputs.branch ?? "");
    const log = head ? h.sandbox.store.git(repo).readFile(head, "spend.log") : null;
    expect(log ?? "").not.toContain("two");
  }, 90_000);
});
