import { parseConfig } from "@loopx/github";
import { describe, expect, it } from "vitest";
import {
  ctx,
  expectOk,
  result as sliceResult,
  state,
  T0,
  todo,
  uuid,
} from "../../packages/core/test/fixtures.ts";
import { jobStep } from "../src/api/job-step.ts";

const parsed = parseConfig({ jobs: { bench: { workflow: "bench.yml" } } });
if (!parsed.ok) throw new Error("the config is valid");
const facts = { defaultBranch: "main", config: parsed.config };
const withJob = sliceResult({ job: { name: "bench", inputs: {} } });

describe("jobStep", () => {
  it("is nothing when the slice named no job", () => {
    expect(jobStep(sliceResult(), uuid(9), facts)).toBeNull();
  });

  it("refuses, as evidence, a job for a todo that cannot wait (done, blocked) instead of dropping it", () => {
    const step = jobStep(withJob, uuid(9), facts);
    if (!step) throw new Error("expected a step");
    const r = expectOk(step(state({ todos: [todo("T1", { status: "blocked" })] }), ctx(T0)));
    expect(r.state.todos[0]?.resumeWhen).toBeNull();
    expect(r.state.evidence.at(-1)?.summary).toMatch(
      /^job request refused, nothing dispatched: T1 is blocked: only an open todo can wait on a job/,
    );
    expect(r.effects.some((e) => e.kind === "dispatch_job")).toBe(false);
  });

  it("refuses every job while the default branch's config is invalid", () => {
    const step = jobStep(withJob, uuid(9), { defaultBranch: "main", config: null });
    if (!step) throw new Error("expected a step");
    const r = expectOk(step(state({ todos: [todo("T1")] }), ctx(T0)));
    expect(r.state.evidence.at(-1)?.summary).toContain(
      '"bench": .github/loopx.yml on the default branch is invalid',
    );
  });
});
