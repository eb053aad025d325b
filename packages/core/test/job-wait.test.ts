import { describe, expect, it } from "vitest";
import {
  awaitJob,
  decide,
  finishJob,
  jobStarted,
  refuseJob,
  todoStateWords,
} from "../src/index.ts";
import { at, ctx, expectOk, expectRefused, minutes, state, T0, todo, uuid } from "./fixtures.ts";

const SYSTEM = { kind: "system" as const, reason: "test" };
const JOB = { name: "long-tests", workflow: "long-tests.yml", inputs: { suite: "e2e" } };

function waiting() {
  const s = state({ todos: [todo("T1"), todo("T2", { status: "blocked" })] });
  return expectOk(
    awaitJob(s, { todo: "T1", tickId: uuid(9), job: JOB, branch: "loopx/1-T1" }, ctx(T0)),
  );
}

describe("a todo waiting on a job", () => {
  it("waits without a tick, and the outbox is asked to dispatch the job once per tick", () => {
    const r = waiting();
    const t1 = r.state.todos.find((t) => t.key === "T1");
    expect(t1?.resumeWhen).toEqual({
      kind: "job",
      job: "long-tests",
      workflow: "long-tests.yml",
      branch: "loopx/1-T1",
      since: T0,
      runId: null,
    });
    expect(r.effects.filter((e) => e.kind === "dispatch")).toEqual([]);
    expect(r.effects.find((e) => e.kind === "dispatch_job")).toEqual({
      kind: "dispatch_job",
      key: `job:${uuid(9)}`,
      todo: "T1",
      job: "long-tests",
      workflow: "long-tests.yml",
      ref: "loopx/1-T1",
      inputs: { suite: "e2e" },
    });
    // No clock ends the wait: only the run's completion does.
    const later = decide(r.state, at(minutes(60 * 24 * 30)), "app");
    expect(later.route).toBe("wait");
    expect(later.reason).toContain("T1's job long-tests to finish");
    expect(later.nextWakeAt).toBeNull();
    if (!t1) throw new Error("T1 is in the plan");
    expect(todoStateWords(r.state, t1, T0)).toBe(
      "waiting for its long-tests job (long-tests.yml) to finish",
    );
  });

  it("refuses to wait on a job for a todo that is not open and ready", () => {
    const s = state({ todos: [todo("T1", { status: "blocked" })] });
    const refusal = expectRefused(
      awaitJob(s, { todo: "T1", tickId: uuid(9), job: JOB, branch: "loopx/1-T1" }, ctx(T0)),
    );
    expect(refusal.code).toBe("invalid_state");
  });

  it("learns its run once, and the completion wakes the loop with evidence from GitHub", () => {
    const started = expectOk(
      jobStarted(waiting().state, { todo: "T1", job: "long-tests", runId: 42 }, ctx(T0, SYSTEM)),
    );
    expect(started.state.todos[0]?.resumeWhen).toMatchObject({ runId: 42 });
    expect(
      expectRefused(
        jobStarted(started.state, { todo: "T1", job: "long-tests", runId: 43 }, ctx(T0, SYSTEM)),
      ).code,
    ).toBe("duplicate");

    const run = { id: 42, conclusion: "success", title: "long tests e2e", url: null };
    const woken = expectOk(finishJob(started.state, { todo: "T1", run }, ctx(at(1), SYSTEM)));
    expect(woken.state.todos[0]?.resumeWhen).toBeNull();
    const fact = woken.state.evidence.at(-1);
    expect(fact).toMatchObject({
      kind: "check",
      todo: "T1",
      tickId: null,
      summary: "job long-tests (long-tests.yml) run 42 concluded success: long tests e2e",
    });
    expect(woken.effects.some((e) => e.kind === "dispatch")).toBe(true);
    // Delivered again: the todo waits on no job any more.
    expect(
      expectRefused(finishJob(woken.state, { todo: "T1", run }, ctx(at(2), SYSTEM))).code,
    ).toBe("invalid_state");
  });

  it("a refused request is evidence and dispatches nothing", () => {
    const s = state({ todos: [todo("T1")] });
    const r = expectOk(
      refuseJob(s, { todo: "T1", tickId: uuid(9), reason: 'job "x" is not listed' }, ctx(T0)),
    );
    expect(r.state.evidence.at(-1)?.summary).toBe(
      'job request refused, nothing dispatched: job "x" is not listed',
    );
    expect(r.state.todos[0]?.resumeWhen).toBeNull();
    expect(r.effects.some((e) => e.kind === "dispatch_job")).toBe(false);
  });
});
