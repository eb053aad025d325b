import { AskResponse } from "@loopx/core";
import { bash, type ScriptedAnthropic, startScriptedAnthropic } from "@loopx/sandbox/models";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { playTick } from "../support/tick-phases.ts";

const API_KEY = "sk-ant-budget-0123456789abcdef";
/** 20k input tokens a turn: $0.30 at the opus family's $15 per million (the CLI asks for opus). */
const TURN = { input_tokens: 20_000, output_tokens: 0 };
const BUDGET = 0.6;

/**
 * Scenario: a goal whose budget ($0.60) is less than one tick's cap ($2) runs the REAL
 * `claude` CLI. The ask hands the slice the goal's money left as its ceiling, a hard one:
 * the metering proxy lowers the first call's output cap to fit and refuses the second, whose
 * worst case no longer fits, mid-slice; the slice ends with its work pushed and a handoff;
 * the goal pauses ("Paused: budget reached"), it is not stopped. The provider never bills
 * past the budget, and the ledger, charged the ceiling, is never above it. The owner raises the budget (a receipt says who, from what to
 * what) and the goal runs again, from the handoff, with what is left.
 */
describe("e2e: a budget reached mid-slice pauses the goal, a raise resumes it", () => {
  let h: TickHarness;
  let model: ScriptedAnthropic;
  beforeAll(async () => {
    model = await startScriptedAnthropic({
      turns: ["one", "two", "three", "four"].map((n) => ({
        content: [bash(`echo ${n} >> work.log`)],
        usage: TURN,
      })),
    });
    h = await startTickHarness({ onPostgres: true });
    h.sandbox.push("acme/widgets", "main", {
      ".github/loopx.yml":
        "harness:\n  default: claude-code\n  allowedTools: [Bash]\nbudgets:\n  goal:\n    usd: 5\n",
    });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    await model?.close();
  });

  const comment = async (body: string) => {
    await h.as("alice").rest.issues.createComment({
      owner: "acme",
      repo: "widgets",
      issue_number: issueNumber,
      body,
    });
    await h.settle();
  };
  const comments = async () =>
    (
      await h.as("alice").rest.issues.listComments({
        owner: "acme",
        repo: "widgets",
        issue_number: issueNumber,
        per_page: 100,
      })
    ).data.map((c) => c.body ?? "");
  let issueNumber = 0;

  it("refuses the model at the ceiling, pushes the work, pauses; the raise resumes", async () => {
    const goal = await h.startGoal("Summarise the corpus", ["Read everything"]);
    issueNumber = goal.goal.issue.number;
    await comment(`/loopx budget usd=${BUDGET}`);
    const budgeted = await h.store.loadGoal(goal.goal.id);
    expect(budgeted?.goal.budget.usd).toBe(BUDGET);

    const tick = await playTick(h, {
      goal: issueNumber,
      runId: 3701,
      agentEnv: { ANTHROPIC_API_KEY: API_KEY, ANTHROPIC_BASE_URL: model.url },
    });
    // The ceiling is the money left, not the $2 tick cap.
    expect(tick.ask.outputs.run).toBe("true");
    expect(tick.agent?.outputs["slice-outcome"], tick.agent?.stdout).toBe("over_budget");
    expect(tick.report?.code, tick.report?.stdout).toBe(0);
    expect(tick.report?.outputs).toMatchObject({ outcome: "failed", pushed: "true" });

    // The work done before the refusal is on the todo branch; the third turn never ran.
    const repo = h.sandbox.store.repoByName("acme", "widgets");
    const head = repo.branches.get(tick.ask.outputs.branch ?? "") ?? "";
    const log = h.sandbox.store.git(repo).readFile(head, "work.log") ?? "";
    expect(log).toContain("one");
    expect(log).not.toContain("three");

    // One call ran, with its output cap lowered to what its worst case left room for.
    const calls = model.requests.filter((r) => r.path.split("?")[0] === "/v1/messages");
    expect(calls).toHaveLength(1);
    const asked = calls[0]?.body as { max_tokens: number };
    expect(asked.max_tokens).toBeLessThan(32_000);

    const after = await h.store.loadGoal(goal.goal.id);
    if (!after) throw new Error("no goal");
    const charged = after.ticks.find((t) => t.id === tick.tickId);
    expect(charged).toMatchObject({ outcome: "failed", failure: "budget_exceeded" });
    // Stopped short of its ceiling, the slice is charged the rest: too little for a call.
    expect(after.goal.spent.usd).toBeCloseTo(BUDGET, 10);
    const handoff = after.handoffs.find((x) => x.tickId === tick.tickId);
    expect(handoff?.done).toContain("[over_budget]");
    // Paused, not stopped: the goal is still active and keeps its todo.
    expect(after.goal.status).toBe("active");
    expect(after.todos.find((t) => t.key === "T1")?.status).not.toBe("dropped");

    const paused = AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: issueNumber }, await h.token(3702))).body,
    );
    expect(paused.run).toBe(false);
    expect(paused.route).toBe("over_budget");
    expect(paused.reason).toContain("Paused: budget reached");

    // Raising is an owner's act, answered with a receipt saying who, from what to what.
    await comment("/loopx budget usd=2");
    expect(await comments()).toContainEqual(
      // Rendered so that it pings nobody: the login follows a zero-width joiner.
      expect.stringContaining(`alice raised the budget: usd ${BUDGET} → 2`),
    );
    const raised = await h.store.loadGoal(goal.goal.id);
    expect(raised?.goal.budget.usd).toBe(2);

    const resumed = AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: issueNumber }, await h.token(3703))).body,
    );
    if (!resumed.run) throw new Error(`the goal did not resume: ${resumed.reason}`);
    const left = 2 - (raised?.goal.spent.usd ?? 0);
    expect(resumed.limits.usd).toBeCloseTo(left, 10);
    // Under the $2 tick cap, what is left is the last of the budget: a hard ceiling.
    expect(resumed.limits.usdFrom).toBe("budget");
    expect(resumed.briefText).toContain(`This slice may spend $${left.toFixed(2)} on the model`);
    expect(resumed.brief.lastHandoff?.tickId).toBe(tick.tickId);
  }, 180_000);
});
