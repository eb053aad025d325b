import { describe, expect, it } from "vitest";
import { runAction } from "./support/run-action.ts";

/** The committed bundle, run as the runner runs it, on inputs a workflow author gets wrong. */
describe("the action bundle on bad or dry-run inputs", () => {
  it("names every missing input a phase needs, and fails the step", async () => {
    const run = await runAction({ phase: "ask" });
    expect(run.code).toBe(1);
    const error = run.errors.join("\n");
    expect(error).toContain("Invalid inputs to the LoopX action");
    expect(error).toContain("pass `goal:");
    expect(error).toContain("needs the LoopX App's URL");
  });

  it("refuses an unknown phase, listing the valid ones", async () => {
    const run = await runAction({ phase: "tick" });
    expect(run.code).toBe(1);
    expect(run.errors.join()).toMatch(/wake.*ask.*agent.*report/);
  });

  it("outside a GitHub Actions job, says so", async () => {
    const run = await runAction(
      { phase: "wake", "api-url": "http://127.0.0.1:9" },
      { GITHUB_REPOSITORY: "" },
    );
    expect(run.code).toBe(1);
    expect(run.errors.join()).toContain("must run in a GitHub Actions job");
  });

  it("a dry run explains the phase, sends nothing and stays green", async () => {
    const run = await runAction({ phase: "report", "dry-run": "true" });
    expect(run.errors).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.summary).toContain("dry run, nothing was sent");
    expect(run.outputs).toMatchObject({ phase: "report", run: "false" });
  });
});
