import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { readKey } from "@loopx/github";
import {
  bash,
  type ScriptedAnthropic,
  startScriptedAnthropic,
  text,
  writeFile,
} from "@loopx/sandbox/models";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GITHUB_ACTION_STAND_INS } from "../../packages/demo/src/stand-ins/index.ts";
import { resultPathIn } from "../../packages/harness/test/fixtures.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

const ROOT = resolve(import.meta.dirname, "../..");

const API_KEY = "sk-ant-e2e-0123456789abcdef";
const CLAIM = {
  outcome: "progress",
  handoff: { done: "Listed the first widget", next: "List the rest", questions: [] },
  evidence: [{ kind: "note", summary: "WIDGETS.md started" }],
};

/**
 * Scenario: label → the App dispatches the repository's tick workflow (this repository's
 * loopx-tick.yml, verbatim) → the sandbox runs its three jobs as child processes with the real
 * action bundle → ask claims, agent runs the REAL `claude` CLI against a scripted model on
 * loopx/<issue>-T1, report sends the result, pushes the branch with the granted token → the
 * issue shows the tick comment.
 */
describe("e2e: a tick through the reusable workflow and the real action", () => {
  let h: TickHarness;
  let model: ScriptedAnthropic;
  beforeAll(async () => {
    model = await startScriptedAnthropic({
      turns: [
        { content: [text("Starting the list."), bash(`echo "- gear" >> WIDGETS.md`)] },
        (req) => ({ content: [writeFile(resultPathIn(req.prompt), JSON.stringify(CLAIM))] }),
        { content: [text("Done.")] },
      ],
    });
    h = await startTickHarness();
    const { sandbox } = h;
    sandbox.push("acme/widgets", "main", {
      ".github/workflows/loopx-tick.yml": readFileSync(
        resolve(ROOT, ".github/workflows/loopx-tick.yml"),
        "utf8",
      ),
      ".github/loopx.yml": [
        "harness:",
        "  default: claude-code",
        "  allowedTools: [Write, Bash]",
        "validationCommand: test -s WIDGETS.md",
        // The tick's own comment is what this scenario reads.
        "comments: sticky",
        "",
      ].join("\n"),
    });
    sandbox.runner.actions = {
      "loopx/loopx@v1": resolve(ROOT, "action/dist/index.js"),
      ...GITHUB_ACTION_STAND_INS,
    };
    // claude is the root devDependency on PATH, at the version the workflow pins: no install.
    sandbox.runner.vars = { LOOPX_API_URL: h.apiUrl, ANTHROPIC_BASE_URL: model.url };
    sandbox.runner.secrets = { ANTHROPIC_API_KEY: API_KEY };
    sandbox.runner.enabled = true;
  });
  afterAll(async () => {
    await h?.close();
    await model?.close();
  });

  it("label → dispatch → ask, agent, report → the branch is pushed and the issue shows the tick", async () => {
    const { sandbox } = h;
    const goal = await h.startGoal("Ship the widget list");
    const issue = goal.goal.issue.number;
    const runs = () =>
      [...sandbox.store.workflowRuns.values()].filter((r) => r.event === "workflow_dispatch");
    for (let i = 0; i < 50 && runs().length === 0; i++) {
      await h.settle();
      await new Promise((r) => setTimeout(r, 100));
    }
    const [run] = runs();
    if (!run) throw new Error("the App dispatched no tick workflow run");
    // One tick is the scenario: the App's follow-up dispatch is recorded, not run.
    sandbox.runner.enabled = false;
    const done = await Promise.race([
      sandbox.runner.wait(run.id),
      new Promise<never>((_, reject) =>
        setTimeout(() => {
          const dump = [...sandbox.store.workflowJobs.values()]
            .filter((j) => j.runId === run.id)
            .map((j) => `--- ${j.key}: ${j.status} ${j.conclusion}\n${j.log}`)
            .join("\n");
          reject(new Error(`run ${run.id} still ${run.status} after 60 s:\n${dump}`));
        }, 60_000),
      ),
    ]);
    const jobs = [...sandbox.store.workflowJobs.values()].filter((j) => j.runId === run.id);
    const logs = jobs.map((j) => `--- ${j.key}: ${j.conclusion}\n${j.log}`).join("\n");
    expect(done.conclusion, logs).toBe("success");
    expect(Object.fromEntries(jobs.map((j) => [j.key, j.conclusion]))).toEqual({
      ask: "success",
      agent: "success",
      report: "success",
    });
    const ask = jobs.find((j) => j.key === "ask");
    const branch = ask?.outputs.branch ?? "";
    expect(branch).toMatch(new RegExp(`^loopx/${issue}-T[0-9]+$`));

    // Only the tick's branch moved, with the slice's work on it.
    const repo = sandbox.store.repoByName("acme", "widgets");
    const head = repo.branches.get(branch);
    expect(head).toBeDefined();

    await h.settle();
    const tickId = ask?.outputs["tick-id"];
    // The commit this tick pushed holds the slice's work; the branch may already have moved on
    // to the next tick's, which the report dispatched.
    const pushed = (await h.store.loadGoal(goal.goal.id))?.evidence.find(
      (e) => e.tickId === tickId && e.kind === "commit" && e.sha !== null,
    );
    expect(sandbox.store.git(repo).readFile(pushed?.sha ?? "", "WIDGETS.md")).toBe("- gear\n");
    // Runner minutes are what the jobs API says, rounded up per job as GitHub bills: three
    // jobs (the report still running when it reported), each under a minute of the clock.
    const charged = (await h.store.loadGoal(goal.goal.id))?.ticks.find((t) => t.id === tickId);
    expect(charged?.cost?.runnerMinutes).toBe(3);
    const comments = sandbox.issue("acme/widgets", issue).comments_list;
    const tickComments = comments.filter((c) => readKey(String(c.body ?? "")) === `tick:${tickId}`);
    expect(tickComments).toHaveLength(1);
    // The run link points at the GitHub LoopX talks to (here the sandbox), not at github.com.
    expect(String(tickComments[0]?.body)).toContain(
      `(${sandbox.url}/acme/widgets/actions/runs/${run.id}/attempts/1)`,
    );
    // The dispatch carried a nonce, and the run is named by the workflow's run-name.
    expect(run.inputs.nonce).toMatch(/\S{8,}/);
    expect(run.displayTitle).toBe(`LoopX tick #${issue} ${run.inputs.nonce}`);
    const report = jobs.find((j) => j.key === "report");
    expect(report?.summary).toContain("progress");
    expect(report?.summary).toContain("Listed the first widget");
    expect(model.turnsServed()).toBe(3);
    // Hermetic: the pinned CLI was found on PATH, nothing was installed from the registry.
    expect(jobs.find((j) => j.key === "agent")?.log).toContain(
      "claude 2.1.332 is already installed",
    );
    // The key reached the harness only; no log or summary shows it (an ::add-mask:: command
    // is consumed by GitHub's runner, which the sandbox's does not emulate).
    for (const j of jobs) {
      const shown = j.log
        .split("\n")
        .filter((l) => !l.startsWith("::add-mask::"))
        .join("\n");
      expect(`${shown}${j.summary}`).not.toContain(API_KEY);
    }
  }, 120_000);
});
