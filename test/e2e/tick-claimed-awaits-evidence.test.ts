import { AWAITING_EVIDENCE } from "@loopx/core";
import {
  type ScriptedAnthropic,
  startScriptedAnthropic,
  text,
  writeFile,
} from "@loopx/sandbox/models";
import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { resultPathIn } from "../../packages/harness/test/fixtures.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { dispatchOneTick, finishRun, useTickWorkflow } from "../support/tick-workflow-runs.ts";

/** All words: no file changed, no validation command (the default), "completed". */
const CLAIM = {
  outcome: "completed",
  handoff: { done: "I ran the tests… all green, trust me", next: "Nothing left", questions: [] },
  evidence: [{ kind: "test", summary: "I ran the tests… all green, trust me" }],
  continuation: { kind: "no_followup", reason: "the research is written up" },
};

const Issue = z.object({ body: z.string() });

/**
 * Scenario: a writer's todo, no validation command; the real `claude` (scripted) changes no
 * file and reports the todo completed on its word alone. The todo is "claimed, awaiting
 * evidence" on the checklist, the goal is not done; the writer's tick completes it.
 */
describe("e2e: a completion on the agent's word awaits evidence until a writer ticks it", () => {
  let h: TickHarness;
  let model: ScriptedAnthropic;
  beforeAll(async () => {
    model = await startScriptedAnthropic({
      turns: [
        (req) => ({ content: [writeFile(resultPathIn(req.prompt), JSON.stringify(CLAIM))] }),
        { content: [text("Done.")] },
      ],
    });
    h = await startTickHarness();
    useTickWorkflow(h, {
      config: ["harness:", "  default: claude-code", "  allowedTools: [Write]", ""].join("\n"),
      vars: { ANTHROPIC_BASE_URL: model.url },
      secrets: { ANTHROPIC_API_KEY: "sk-ant-claimed-0123456789abcdef" },
    });
  });
  afterAll(async () => {
    await h?.close();
    await model?.close();
  });

  it("prose leaves T1 claimed on the checklist; alice's tick completes it", async () => {
    const goal = await h.startGoal("Research the gear market", ["Write up the gear market"]);
    const issue = goal.goal.issue.number;
    const { run, jobs, logs } = await finishRun(h, (await dispatchOneTick(h, issue)).id);
    expect(run.conclusion, logs).toBe("success");
    expect(jobs.ask?.outputs.todo).toBe("T1");
    await h.settle();

    let state = await h.store.loadGoal(goal.goal.id);
    const t1 = state?.todos.find((t) => t.key === "T1");
    expect([t1?.status, t1?.blockedReason, t1?.completion]).toEqual([
      "blocked",
      AWAITING_EVIDENCE,
      null,
    ]);
    expect(state?.goal.status).toBe("active");
    const { body } = Issue.parse(h.sandbox.issue("acme/widgets", issue));
    expect(body).toMatch(/- \[ \] T1 .*\(claimed, awaiting evidence/);

    const alice = new Octokit({
      baseUrl: h.sandbox.url,
      auth: h.sandbox.createUserToken("alice"),
      request: { retries: 0 },
    });
    await alice.rest.issues.update({
      owner: "acme",
      repo: "widgets",
      issue_number: issue,
      body: body.replace(/- \[ \] (T1 .*<!-- loopx:todo=T1 -->)/, "- [x] $1"),
    });
    await h.settle();
    state = await h.store.loadGoal(goal.goal.id);
    const ticked = state?.todos.find((t) => t.key === "T1");
    expect(ticked?.status).toBe("done");
    const support = state?.evidence.filter((e) => ticked?.completion?.evidenceIds.includes(e.id));
    expect(support?.map((e) => e.summary)).toEqual(["completed by @alice"]);
  }, 120_000);
});
