import { Route } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../support/app-harness.ts";
import { openTestGate, startGoal } from "../support/goal-steps.ts";
import { runLoopx } from "./cli-steps.ts";
import { recordSlice, startDashboardHarness } from "./dashboard-steps.ts";

/** Scenario: `loopx status` reads a running app's API (never its database). */
describe("e2e: loopx status against a running app", () => {
  let h: Harness;
  let number: number;
  beforeAll(async () => {
    h = await startDashboardHarness("demo");
    let goalId: string;
    ({ number, goalId } = await startGoal(h, "alice", "Make widgets faster"));
    // Its one slice plans nothing: nothing is delivered yet.
    await recordSlice(h, goalId, {
      summary: "profiled",
      done: "profiled",
      usd: 0.4,
      proposes: false,
    });
    await openTestGate(h, goalId, { question: "May I deploy?", scopes: ["deploy"] });
  });
  afterAll(() => h.close());

  it("lists goals with the gates waiting, the next wake and the spend", async () => {
    const r = await runLoopx(["status", "--url", h.appUrl]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`acme/widgets#${number} active: Make widgets faster`);
    expect(r.stdout).toContain("gates waiting: G1");
    expect(r.stdout).toContain("1 ticks · $0.40");
  });

  it("shows one goal, and --json for scripts", async () => {
    const one = await runLoopx(["status", "--url", h.appUrl, "--goal", `acme/widgets#${number}`]);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain("G1 open: May I deploy?");
    // Named in people's words; the kernel's route is in --json only.
    const routes = Route.options.join("|");
    expect(one.stdout).not.toMatch(new RegExp(`^\\s*(?:${routes}):`, "m"));
    const json = await runLoopx(["status", "--url", h.appUrl, "--json"]);
    expect(JSON.parse(json.stdout).goals[0].openGates).toEqual(["G1"]);
  });

  it("exit codes: 4 for a goal that does not exist, 3 for an app that is not there, 2 for usage", async () => {
    const missing = await runLoopx(["status", "--url", h.appUrl, "--goal", "acme/widgets#999"]);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain("no LoopX goal on acme/widgets#999");
    const down = await runLoopx(["status", "--url", "http://127.0.0.1:9"]);
    expect(down.code).toBe(3);
    expect(down.stderr).toContain("cannot reach the LoopX app");
    expect((await runLoopx(["status", "--goal", "nonsense"])).code).toBe(2);
  });

  it("--json carries the outcome: what was delivered for the cost, and what it took of people", async () => {
    const goal = ["status", "--url", h.appUrl, "--goal", `acme/widgets#${number}`];
    const before = JSON.parse((await runLoopx([...goal, "--json"])).stdout);
    // The gate waits on people: its time so far counts, and nothing is delivered to divide by.
    expect(before.outcome).toMatchObject({ todosDone: 0, usdPerTodo: null, waiting: 1 });
    // alice's label that started the goal is an act of hers.
    expect(before.outcome.personActs).toBe(1);
    await h.as("alice").rest.issues.createComment({
      owner: "acme",
      repo: "widgets",
      issue_number: number,
      body: "/loopx approve G1",
    });
    await h.settle();
    const after = JSON.parse((await runLoopx([...goal, "--json"])).stdout);
    expect(after.outcome).toMatchObject({ personActs: 2, decisions: 1, waiting: 0 });
    expect(after.outcome.waitedMs).toBeGreaterThan(0);
    const text = await runLoopx(goal);
    expect(text.stdout).toContain(after.outcome.words.people);
    expect(after.outcome.words.people).toContain("2 acts by people, 1 decision on gates");
  });
});
