import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dbOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTION_ENTRY, runAction } from "../../action/test/support/run-action.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { idTokenEnv } from "../support/tick-phases.ts";

/**
 * Fault: the runner dies in the middle of a slice (SIGKILL to the agent job and its harness),
 * so no report reaches the App. When the lease expires on the database clock the App's
 * scheduler recovers the todo on its own: `host_failure` evidence, the tick charged its cap,
 * the todo ready again, backoff grown. The report job, run late (a re-run), is refused and
 * changes nothing. (A late result without the sweep: test/e2e/tick-api-late-result.test.ts.)
 */
const RUN = 6601;

function temp(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

async function waitFor(path: string): Promise<void> {
  // Event-driven on the harness writing its marker; bounded by the test timeout.
  while (!existsSync(path)) await new Promise((r) => setTimeout(r, 50));
}

describe("fault: the action killed mid-slice", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
    h.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": "harness:\n  default: shell\n" });
  });
  afterAll(() => h.close());

  it("the lease expires, the scheduler records a host failure, the late report is refused", async () => {
    const goal = await h.startGoal("Index the widgets", ["Build the index"]);
    const github = {
      GITHUB_REPOSITORY: h.repo.fullName,
      GITHUB_SERVER_URL: h.sandbox.url,
      GITHUB_API_URL: h.sandbox.url,
      GITHUB_RUN_ID: String(RUN),
    };
    const dirs = {
      ask: temp("loopx-ask-"),
      agent: temp("loopx-agent-"),
      report: temp("loopx-report-"),
    };
    const ask = await runAction(
      {
        phase: "ask",
        goal: String(goal.goal.issue.number),
        "api-url": h.apiUrl,
        "tick-dir": dirs.ask,
      },
      { ...github, ...idTokenEnv(h, RUN) },
    );
    expect(ask.outputs.run, ask.stdout).toBe("true");
    const tickId = ask.outputs["tick-id"] ?? "";

    // The agent job, as the runner starts it; its harness signals once it is mid-slice.
    const token = h.sandbox.createUserToken("alice");
    const workspace = join(temp("loopx-ws-"), "ws");
    await new Promise<void>((resolve, reject) => {
      const git = spawn("git", [
        "clone",
        "--quiet",
        h.sandbox.cloneUrl(h.repo.fullName, token),
        workspace,
      ]);
      git.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`git clone: ${code}`))));
    });
    copyFileSync(join(dirs.ask, "ask.json"), join(dirs.agent, "ask.json"));
    // In the work tree: the jailed slice sees nothing else of the job's that the test can read.
    const marker = join(workspace, "mid-slice");
    const agent = spawn(process.execPath, [ACTION_ENTRY], {
      detached: true,
      stdio: "ignore",
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: temp("loopx-home-"),
        RUNNER_TEMP: temp("loopx-runner-"),
        GITHUB_WORKSPACE: workspace,
        GITHUB_OUTPUT: join(dirs.agent, "output"),
        GITHUB_STEP_SUMMARY: join(dirs.agent, "summary"),
        ...github,
        INPUT_PHASE: "agent",
        "INPUT_TICK-DIR": dirs.agent,
        INPUT_TOKEN: token,
        "INPUT_SHELL-COMMAND": `echo half > half.txt && touch ${marker} && sleep 300`,
      },
    });
    const died = new Promise((resolve) => agent.on("exit", resolve));
    await waitFor(marker);
    // The whole job's process group, harness included, as a lost runner leaves it.
    if (agent.pid === undefined) throw new Error("the agent job has no pid");
    process.kill(-agent.pid, "SIGKILL");
    await died;
    expect(existsSync(join(dirs.agent, "result.json"))).toBe(false);

    const before = await h.store.loadGoal(goal.goal.id);
    expect(before?.ticks.find((t) => t.id === tickId)?.finishedAt).toBeNull();
    // Nothing happens until the lease runs out: the sweep leaves a live lease alone.
    expect((await h.app.scheduler.tick()).expired).toBe(0);

    // The database clock passes the lease (as the job's timeout and then some would).
    await dbOf(h.store).execute(
      sql`UPDATE ticks SET lease_expires_at = now() - interval '1 minute' WHERE id = ${tickId}`,
    );
    await dbOf(h.store).execute(
      sql`UPDATE todos SET lease_expires_at = now() - interval '1 minute' WHERE claim_tick_id = ${tickId}`,
    );
    expect((await h.app.scheduler.tick()).expired).toBe(1);
    await h.settle();

    const swept = await h.store.loadGoal(goal.goal.id);
    const tick = swept?.ticks.find((t) => t.id === tickId);
    expect(tick).toMatchObject({ failure: "lease_expired", slotSpent: false });
    // Charged at the tick cap (budgets.tick defaults: $2, 1M tokens, 30 runner minutes).
    expect(tick?.cost).toEqual({ usd: 2, tokens: 1_000_000, runnerMinutes: 30 });
    expect(swept?.evidence.filter((e) => e.kind === "host_failure")).toHaveLength(1);
    expect(swept?.todos.find((t) => t.key === "T1")).toMatchObject({
      status: "ready",
      claim: null,
    });
    expect(swept?.goal.backoff.stalledTicks).toBe(1);

    // The report job, re-run late with what the dead agent job left: refused, nothing changes.
    copyFileSync(join(dirs.ask, "lease.json"), join(dirs.report, "lease.json"));
    const late = await runAction(
      {
        phase: "report",
        "api-url": h.apiUrl,
        "tick-dir": dirs.report,
        "agent-result": "failure",
      },
      { ...github, ...idTokenEnv(h, RUN) },
    );
    expect(late.summary + late.stdout).toContain("expired");
    await h.settle();
    const after = await h.store.loadGoal(goal.goal.id);
    const again = after?.ticks.find((t) => t.id === tickId);
    expect(again?.cost).toEqual(tick?.cost);
    expect(after?.goal.spent).toEqual(swept?.goal.spent);
    expect(after?.evidence.filter((e) => e.kind === "host_failure")).toHaveLength(1);
    expect(after?.todos.find((t) => t.key === "T1")?.status).toBe("ready");
    // The late report is kept once, as evidence of what the tick said, never applied.
    expect(
      after?.evidence.filter((e) => e.summary.startsWith("late result of tick #1 ")),
    ).toHaveLength(1);
    expect(readFileSync(join(workspace, "half.txt"), "utf8")).toBe("half\n");
  });
});
