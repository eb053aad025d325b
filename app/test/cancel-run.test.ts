import type { GitHubPort } from "@loopx/github";
import { describe, expect, it } from "vitest";
import { state as goalState, T0 } from "../../packages/core/test/fixtures.ts";
import { cancelRun, EffectDeferred, FORCE_CANCEL_AFTER_MS } from "../src/outbox/cancel-run.ts";

const effect = {
  kind: "cancel_run" as const,
  key: "cancel_run:t1",
  tickId: "00000000-0000-4000-9000-000000000501",
  runId: 77,
  at: T0,
};
const at = (ms: number) => new Date(T0.getTime() + ms);

function fakePort(answer: "cancelling" | "completed" | Error) {
  const calls: string[] = [];
  const port: Pick<GitHubPort, "cancelRun"> = {
    cancelRun: (_repo, runId, force) => {
      calls.push(`${force ? "force-cancel" : "cancel"} ${runId}`);
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  };
  return { port, calls };
}

async function deferral(p: Promise<void>): Promise<EffectDeferred> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof EffectDeferred)) throw new Error(`expected a deferral, got ${error}`);
  return error;
}

describe("cancelRun", () => {
  it("cancels, then waits until five minutes after the stop", async () => {
    const { port, calls } = fakePort("cancelling");
    const wait = await deferral(cancelRun(port, goalState(), effect, null, at(1000)));
    expect(calls).toEqual(["cancel 77"]);
    expect(wait.retryAt).toEqual(at(FORCE_CANCEL_AFTER_MS));
    // Due again early with the note of the taken cancel: nothing is sent twice.
    const again = await deferral(cancelRun(port, goalState(), effect, wait.message, at(2000)));
    expect(again.retryAt).toEqual(at(FORCE_CANCEL_AFTER_MS));
    expect(calls).toEqual(["cancel 77"]);
  });

  it("after a failed attempt the cancel is sent again: GitHub may never have taken it", async () => {
    const { port, calls } = fakePort("cancelling");
    await deferral(cancelRun(port, goalState(), effect, "GitHub 502 on cancelling", at(1000)));
    expect(calls).toEqual(["cancel 77"]);
  });

  it("a run GitHub says is completed needs nothing more", async () => {
    const { port, calls } = fakePort("completed");
    await cancelRun(port, goalState(), effect, null, at(1000));
    expect(calls).toEqual(["cancel 77"]);
  });

  it("five minutes after the stop, force-cancels once and is done", async () => {
    const { port, calls } = fakePort("cancelling");
    const note = "workflow run 77 is cancelling; LoopX force-cancels it at …";
    await cancelRun(port, goalState(), effect, note, at(FORCE_CANCEL_AFTER_MS));
    expect(calls).toEqual(["force-cancel 77"]);
  });

  it("a GitHub failure is the outbox's to retry", async () => {
    const { port } = fakePort(new Error("boom"));
    await expect(cancelRun(port, goalState(), effect, null, at(1000))).rejects.toThrow("boom");
  });
});
