import { AskRequest, AskResponse } from "@loopx/core";
import type { PhaseContext, PhaseResult } from "../phase-context.ts";
import { type AgentBrief, type LeaseFile, writeJson } from "../tick-files.ts";

/**
 * Should this run work, and on what? On `run`, the answer is written for the next jobs: the
 * brief (without the lease token) for the agent job, the lease for the report job only.
 */
export async function ask(ctx: PhaseContext): Promise<PhaseResult> {
  const goal = ctx.input.goal;
  if (goal === undefined) throw new Error('phase "ask" needs the `goal` input');
  const limits = {
    ...(ctx.input["max-usd"] !== undefined ? { usd: ctx.input["max-usd"] } : {}),
    ...(ctx.input["max-minutes"] !== undefined ? { runnerMinutes: ctx.input["max-minutes"] } : {}),
  };
  const slot = ctx.input.slot ?? "";
  const request = AskRequest.parse({
    goal,
    // A goal's one slot sends none, so the request stays what an App before slots accepts.
    ...(slot === "" ? {} : { slot }),
    ...(Object.keys(limits).length ? { limits } : {}),
  });
  const answer = await ctx.api().post("/api/v1/ticks", request, AskResponse);
  if (!answer.run) {
    const next = answer.nextWakeAt
      ? `next wake ${answer.nextWakeAt.toISOString()}`
      : "no wake planned";
    return {
      summary: `LoopX #${goal}: ${answer.route} — ${oneLine(answer.reason)} (${next}).`,
      outputs: { run: "false", route: answer.route },
      failure: null,
    };
  }
  ctx.secrets.add(answer.leaseToken);
  const { leaseToken, ...rest } = answer;
  const brief: AgentBrief = rest;
  const lease: LeaseFile = {
    goal,
    tickId: answer.tickId,
    leaseToken,
    todo: answer.todo,
    branch: answer.branch,
    harness: answer.harness,
  };
  const briefPath = await writeJson(ctx.tickDir, "brief", brief);
  const leasePath = await writeJson(ctx.tickDir, "lease", lease);
  return {
    summary: `LoopX #${goal}: ${answer.route} ${answer.todo} on \`${answer.branch}\` with ${answer.harness} — ${oneLine(answer.reason)}`,
    outputs: {
      run: "true",
      route: answer.route,
      "tick-id": answer.tickId,
      "lease-token": leaseToken,
      todo: answer.todo,
      branch: answer.branch,
      harness: answer.harness,
      "brief-file": briefPath,
      "lease-file": leasePath,
    },
    failure: null,
  };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, 300);
}
