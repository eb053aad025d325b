import { AWAITING_PULL_REQUEST } from "@loopx/core";
import { parseChecklist, readKey } from "@loopx/github";
import {
  bash,
  type ScriptedAnthropic,
  startScriptedAnthropic,
  text,
  writeFile,
} from "@loopx/sandbox/models";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { resultPathIn } from "../../packages/harness/test/fixtures.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { dispatchOneTick, finishRun, useTickWorkflow } from "../support/tick-workflow-runs.ts";

const CLAIM = {
  outcome: "completed",
  handoff: {
    done: "Listed every gear in GEARS.md",
    next: "List the cogs next",
    questions: [],
  },
  evidence: [{ kind: "note", summary: "GEARS.md lists the gears" }],
  // A completion names what follows; without it the slice is only progress.
  continuation: { kind: "goal_active" },
};

/**
 * Scenario: a labelled goal with two todos; loopx-tick.yml is dispatched → the sandbox runs ask, agent (the REAL
 * `claude` against a scripted model that finishes T1) and report → the issue shows what the
 * tick did: the tick comment, the handoff and the next wake in the status comment. T1's work
 * is on its branch, so T1 waits for its pull request to merge and stays unticked; T2 runs next.
 */
describe("e2e: a completing tick through the workflow shows on the issue", () => {
  let h: TickHarness;
  let model: ScriptedAnthropic;
  beforeAll(async () => {
    model = await startScriptedAnthropic({
      turns: [
        { content: [text("Listing."), bash(`echo "- gear" >> GEARS.md`)] },
        (req) => ({ content: [writeFile(resultPathIn(req.prompt), JSON.stringify(CLAIM))] }),
        { content: [text("Done.")] },
      ],
    });
    h = await startTickHarness();
    useTickWorkflow(h, {
      config: [
        "harness:",
        "  default: claude-code",
        "  allowedTools: [Write, Bash]",
        "validationCommand: test -s GEARS.md",
        // The tick's own comment is what this scenario reads.
        "comments: sticky",
        "",
      ].join("\n"),
      vars: { ANTHROPIC_BASE_URL: model.url },
      secrets: { ANTHROPIC_API_KEY: "sk-ant-complete-0123456789abcdef" },
    });
  });
  afterAll(async () => {
    await h?.close();
    await model?.close();
  });

  it("shows the handoff and the next wake; T1 waits for its PR, unticked", async () => {
    const goal = await h.startGoal("Catalogue the parts", ["List the gears", "List the cogs"]);
    const issue = goal.goal.issue.number;
    // One tick is the scenario: the App's follow-up dispatch (for T2) is recorded, not run.
    const run = await dispatchOneTick(h, issue);
    const { run: done, jobs, logs } = await finishRun(h, run.id);
    expect(done.conclusion, logs).toBe("success");
    expect(jobs.ask?.outputs.todo).toBe("T1");
    expect(jobs.report?.summary).toContain("### LoopX T1: completed");
    await h.settle();

    const state = await h.store.loadGoal(goal.goal.id);
    const t1 = state?.todos.find((t) => t.key === "T1");
    expect(t1?.status).toBe("blocked");
    expect(t1?.blockedReason).toBe(AWAITING_PULL_REQUEST);
    const { body } = z.object({ body: z.string() }).parse(h.sandbox.issue("acme/widgets", issue));
    expect(parseChecklist(body)).toEqual([
      { todo: "T1", checked: false },
      { todo: "T2", checked: false },
    ]);

    const comments = h.sandbox.issue("acme/widgets", issue).comments_list;
    const tickId = jobs.ask?.outputs["tick-id"];
    expect(comments.filter((c) => readKey(String(c.body ?? "")) === `tick:${tickId}`)).toHaveLength(
      1,
    );
    const status = comments.find((c) => readKey(String(c.body ?? "")) === "status");
    const shown = String(status?.body ?? "");
    expect(shown).toContain("#### Last handoff");
    expect(shown).toContain("Listed every gear in GEARS.md");
    expect(shown).toContain("List the cogs next");
    // T2 is runnable now: the next wake is a time, not "only when something happens".
    expect(shown).toMatch(/\*\*Next wake:\*\* \S/);
    expect(shown).not.toContain("**Next wake:** only when something happens");
    const wake = state?.goal.nextWakeAt;
    expect(wake).not.toBeNull();
  }, 120_000);
});
