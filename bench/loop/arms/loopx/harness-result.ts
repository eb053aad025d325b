/**
 * The result file the shipped action's agent job would write for one bench slice, built by the
 * harness's own pure mapping (decideOutcome, then toHarnessResult) from what the bench knows:
 * the agent's claim, the validation the bench ran on the tree it left, the files it changed,
 * and the tokens the metering proxy counted.
 */
import type { HarnessResult } from "@loopx/core";
import { type AgentClaim, decideOutcome, type SliceReport, toHarnessResult } from "@loopx/harness";
import type { GuardedChange } from "../../../../action/src/guard-changes.ts";
import { billedMinutes, SETUP_MINUTES, SLICE_MINUTES, USD_PER_TOKEN } from "../billing.ts";

/** An agent job bills what every arm's does: its setup and one slice, rounded up. */
export const AGENT_JOB_MINUTES = billedMinutes(SETUP_MINUTES + SLICE_MINUTES);

/** The result as the action's agent job builds it: decideOutcome, then toHarnessResult. */
export function harnessResult(o: {
  todo: string;
  command: string | null;
  claimed: AgentClaim;
  validated: boolean | null;
  changes: GuardedChange[];
  tokens: number;
  /** The slice's USD ceiling, and whether the metering proxy stopped the slice at it. */
  ceilingUsd: number;
  cut: boolean;
  commitSha: string | null;
}): HarnessResult {
  const command = o.command ?? "npm test";
  const validation =
    o.validated === null
      ? null
      : {
          command,
          exitCode: o.validated ? 0 : 1,
          passed: o.validated,
          summary: o.validated ? "the visible tests pass" : "the visible tests fail",
          timedOut: false,
          durationMs: 0,
          outputTail: "",
        };
  const cost = {
    usd: o.tokens * USD_PER_TOKEN,
    tokens: o.tokens,
    runnerMinutes: AGENT_JOB_MINUTES,
  };
  const delta = {
    known: true,
    changed: o.changes.length > 0,
    commits: o.commitSha ? [{ sha: o.commitSha, message: `${o.todo} work` }] : [],
    changedFiles: o.changes.map((c) => c.path),
  };
  const decided = decideOutcome({
    stop: "exited",
    exitCode: 0,
    spawnError: null,
    verdict: { kind: "ok", message: "" },
    reading: {
      usd: cost.usd,
      tokens: o.tokens,
      ...(o.cut ? { overCap: 1 } : {}),
      turns: 1,
      sessionId: null,
    },
    limits: { wallMs: 3_600_000, idleMs: 600_000, maxTurns: 200, maxUsd: o.ceilingUsd },
    claim: { ok: true, claim: o.claimed, raw: "" },
    validation,
    delta,
  });
  const report: SliceReport = {
    harness: "shell",
    todo: o.todo,
    ...decided,
    cost,
    turns: 1,
    sessionId: null,
    claim: o.claimed,
    claimError: null,
    delta,
    validation,
    process: { stop: "exited", exitCode: 0, signal: null, durationMs: 0, pid: null },
    jail: null,
    jailFailure: null,
    withheld: [],
    outputTail: "",
    outputBytes: 0,
    outputTruncated: false,
  };
  // Counted by the metering proxy, as the shipped action's agent job reports it.
  return { ...toHarnessResult(report, o.todo), metering: "proxy" };
}
