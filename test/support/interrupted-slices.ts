/**
 * A shell slice that starts its work, says so over loopback (the jail shares the network, as
 * the model servers need), then keeps going until the run is cancelled under it: the ground
 * for scenarios that stop or pause a goal mid-slice, through the real workflow and action.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { GoalState } from "@loopx/core";
import type { WorkflowRun } from "../../packages/sandbox/src/index.ts";
import { startTickHarness, type TickHarness } from "./tick-api-harness.ts";
import { dispatchOneTick, useTickWorkflow } from "./tick-workflow-runs.ts";

export interface SliceSignal {
  /** The shell harness's command: writes half.txt, calls back, then loops until killed. */
  command: string;
  /** Resolves when the slice has written its work and is looping. */
  started(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function sliceSignal(): Promise<SliceSignal> {
  let resolveStarted: () => void = () => {};
  const startedOnce = new Promise<void>((r) => {
    resolveStarted = r;
  });
  const server: Server = createServer((req, res) => {
    if (req.url === "/started") resolveStarted();
    res.end("ok");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  const callBack = `node -e "fetch('http://127.0.0.1:${port}/started').then(() => {})"`;
  return {
    command: `echo half > half.txt && ${callBack} && while :; do sleep 0.2; done`,
    started: (timeoutMs = 60_000) =>
      Promise.race([
        startedOnce,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error("the slice never started")), timeoutMs).unref(),
        ),
      ]),
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** The shell harness on this repository's loopx-tick.yml, running `signal`'s slice. */
export function useLoopingSlice(h: TickHarness, signal: SliceSignal): void {
  useTickWorkflow(h, {
    config: "harness:\n  default: shell\n",
    vars: { LOOPX_SHELL_COMMAND: signal.command },
  });
}

/** The tick harness with the looping slice on the real workflow; `close` ends both. */
export async function loopingSliceHarness(): Promise<{
  h: TickHarness;
  signal: SliceSignal;
  close(): Promise<void>;
}> {
  const h = await startTickHarness({ onPostgres: true });
  const signal = await sliceSignal();
  useLoopingSlice(h, signal);
  return {
    h,
    signal,
    async close() {
      await h.close();
      await signal.close();
    },
  };
}

/** Starts a goal with one todo and runs one tick of it until its slice is at work. */
export async function tickAtWork(
  h: TickHarness,
  signal: SliceSignal,
): Promise<{ goal: GoalState; issue: number; run: WorkflowRun }> {
  const goal = await h.startGoal("Index the archive", ["Build the index"]);
  const issue = goal.goal.issue.number;
  const run = await dispatchOneTick(h, issue);
  await signal.started();
  return { goal, issue, run };
}

/** A writer's command on the goal issue, as a comment; settles the App. */
export async function command(h: TickHarness, issue: number, body: string): Promise<void> {
  await h.as("alice").rest.issues.createComment({
    owner: "acme",
    repo: "widgets",
    issue_number: issue,
    body,
  });
  await h.settle();
}

/** The App's requests to cancel or force-cancel run `runId`, as the sandbox served them. */
export function cancelRequests(h: TickHarness, runId: number): string[] {
  return h.sandbox
    .requests()
    .filter((r) => r.method === "POST" && r.path.includes(`/actions/runs/${runId}/`))
    .map((r) => r.path.split("/").at(-1) ?? "");
}
