import type { GoalState, TransitionResult } from "@loopx/core";
import { GitHubError, type GitHubPort } from "@loopx/github";
import { describe, expect, it } from "vitest";
import { state as goalState, T0, todo } from "../../packages/core/test/fixtures.ts";
import type { AppDeps } from "../src/deps.ts";
import { EffectDeferred } from "../src/outbox/cancel-run.ts";
import { BRANCH_GRACE_MS, dispatchJob } from "../src/outbox/dispatch-job.ts";

const effect = {
  kind: "dispatch_job" as const,
  key: "job:t1",
  todo: "T1",
  job: "long-tests",
  workflow: "long-tests.yml",
  ref: "loopx/1-T1",
  inputs: { suite: "e2e" },
};
const at = (ms: number) => new Date(T0.getTime() + ms);

function waiting(runId: number | null = null): GoalState {
  return goalState({
    todos: [
      todo("T1", {
        resumeWhen: {
          kind: "job",
          job: "long-tests",
          workflow: "long-tests.yml",
          branch: "loopx/1-T1",
          since: T0,
          runId,
        },
      }),
    ],
  });
}

/** A port that answers each dispatch in turn, and a store that applies onto `s`. */
function fakes(s: GoalState, answers: Array<number | null | Error>) {
  const dispatched: string[] = [];
  const port: Pick<GitHubPort, "dispatchWorkflow"> = {
    dispatchWorkflow: (_repo, workflow, ref, inputs) => {
      dispatched.push(`${workflow}@${ref} ${JSON.stringify(inputs)}`);
      const answer = answers.shift();
      return answer instanceof Error
        ? Promise.reject(answer)
        : Promise.resolve({ runId: answer ?? null });
    },
  };
  const applied: TransitionResult[] = [];
  const store = {
    apply: async (_id: string, fn: (s: GoalState, now: Date) => TransitionResult) => {
      const r = fn(s, T0);
      applied.push(r);
      return r;
    },
  };
  const deps = { store, newId: () => crypto.randomUUID() } as unknown as AppDeps;
  return { port, deps, dispatched, applied };
}

const refused = (message: string) =>
  new GitHubError(`dispatching long-tests.yml: GitHub answered 422 (${message})`, 422, null, {
    cause: new Error(`${message} - https://docs.github.com/rest`),
  });

describe("dispatchJob", () => {
  it("dispatches once and records the run GitHub names", async () => {
    const f = fakes(waiting(), [42]);
    await dispatchJob(f.deps, f.port, waiting(), effect, at(1000));
    expect(f.dispatched).toEqual(['long-tests.yml@loopx/1-T1 {"suite":"e2e"}']);
    const r = f.applied[0];
    expect(r?.ok && r.state.todos[0]?.resumeWhen).toMatchObject({ runId: 42 });
    // Retried after the run is known, or once the todo no longer waits: nothing is sent.
    const again = fakes(waiting(42), [43]);
    await dispatchJob(again.deps, again.port, waiting(42), effect, at(2000));
    expect(again.dispatched).toEqual([]);
    const done = goalState({ todos: [todo("T1")] });
    await dispatchJob(again.deps, again.port, done, effect, at(2000));
    const stopped = { ...waiting(), goal: { ...waiting().goal, status: "stopped" as const } };
    await dispatchJob(again.deps, again.port, stopped, effect, at(2000));
    expect(again.dispatched).toEqual([]);
  });

  it("waits for a branch the report job has not pushed yet, then takes GitHub's no as evidence", async () => {
    const early = fakes(waiting(), [refused("No ref found for: loopx/1-T1")]);
    const error = await dispatchJob(early.deps, early.port, waiting(), effect, at(1000)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EffectDeferred);
    expect(early.applied).toEqual([]);

    const late = fakes(waiting(), [refused("No ref found for: loopx/1-T1")]);
    await dispatchJob(late.deps, late.port, waiting(), effect, at(BRANCH_GRACE_MS + 1));
    const r = late.applied[0];
    if (!r?.ok) throw new Error("expected the wait to end");
    expect(r.state.todos[0]?.resumeWhen).toBeNull();
    expect(r.state.evidence.at(-1)?.summary).toBe(
      "GitHub refused to dispatch job long-tests (long-tests.yml) on loopx/1-T1: No ref found for: loopx/1-T1",
    );
  });

  it("ends the wait at once on another 422, and leaves other failures to the outbox's retry", async () => {
    const bad = fakes(waiting(), [refused('Unexpected inputs provided: ["suite"]')]);
    await dispatchJob(bad.deps, bad.port, waiting(), effect, at(1000));
    const r = bad.applied[0];
    expect(r?.ok && r.state.evidence.at(-1)?.summary).toMatch(
      /: Unexpected inputs provided: \["suite"\]$/,
    );
    const down = fakes(waiting(), [new GitHubError("GitHub answered 502", 502, null)]);
    await expect(dispatchJob(down.deps, down.port, waiting(), effect, at(1000))).rejects.toThrow(
      "502",
    );
    expect(down.applied).toEqual([]);
  });
});
