/** The ask and result calls a tick scenario makes by hand, as the workflow's jobs would. */
import { AskResponse } from "@loopx/core";
import type { TickHarness } from "./tick-api-harness.ts";

export type RunClaim = Extract<AskResponse, { run: true }>;

/** POST /api/v1/ticks for `issue` as workflow run `runId`; the claim, or an error if it waits. */
export async function askRun(h: TickHarness, issue: number, runId: number): Promise<RunClaim> {
  const answer = AskResponse.parse(
    (await h.post("/api/v1/ticks", { goal: issue }, await h.token(runId))).body,
  );
  if (!answer.run) throw new Error(`expected a run, got: ${answer.reason}`);
  return answer;
}

/** POST …/result for the claim, from the same run: `result` is the harness's report. */
export async function reportResult(
  h: TickHarness,
  claim: RunClaim,
  runId: number,
  result: Record<string, unknown>,
): Promise<{ status: number; body: unknown }> {
  return h.post(
    `/api/v1/ticks/${claim.tickId}/result`,
    {
      leaseToken: claim.leaseToken,
      result: { todo: claim.todo, cost: { usd: 0.1, tokens: 100, runnerMinutes: 1 }, ...result },
    },
    await h.token(runId),
  );
}
