import { existsSync } from "node:fs";
import * as core from "@actions/core";
import {
  type HarnessResult,
  HarnessResult as HarnessResultSchema,
  MAX_PUSHED_PATHS,
  PushedRequest,
  PushedResponse,
  type PushRefusal,
  ResultRequest,
  ResultResponse,
} from "@loopx/core";
import { missingResult } from "../missing-result.ts";
import type { PhaseContext, PhaseResult } from "../phase-context.ts";
import { type PushOutcome, pushBundle } from "../push-bundle.ts";
import { renderResult } from "../render-result.ts";
import { revokeToken } from "../revoke-token.ts";
import { sliceMessage } from "../slice-commit.ts";
import { LeaseFile, readJson, tickPath } from "../tick-files.ts";

/**
 * Sends the slice's result with the lease token and a fresh OIDC token; with the push grant it
 * pushes ONLY the tick's branch from the agent's bundle, tells the App the head, and revokes
 * the token. The summary always shows the result, even when sending it failed.
 */
export async function report(ctx: PhaseContext): Promise<PhaseResult> {
  const { env, secrets } = ctx;
  const lease = await readJson(ctx.tickDir, "lease", LeaseFile, "ask job");
  if (!lease) {
    throw new Error(
      `${tickPath(ctx.tickDir, "lease")} is missing: download the ask job's \`loopx-lease\` artifact to the tick-dir before the report phase`,
    );
  }
  secrets.add(lease.leaseToken);
  const result = await loadResult(ctx, lease.todo);
  const issueUrl = `${env.serverUrl}/${env.repository}/issues/${lease.goal}`;
  const outputs: Record<string, string> = { outcome: result.outcome, pushed: "false" };
  const extra: string[] = [];
  const summary = (title: string) => renderResult({ title, result, issueUrl, extra });
  const fail = (message: string): PhaseResult => ({
    summary: summary(`LoopX ${lease.todo}: ${result.outcome} — NOT fully reported`),
    outputs,
    failure: message,
  });

  let answer: ResultResponse;
  try {
    const body = ResultRequest.parse({ leaseToken: lease.leaseToken, result });
    answer = await ctx.api().post(`/api/v1/ticks/${lease.tickId}/result`, body, ResultResponse);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    extra.push(`**Upload failed:** ${reason}`);
    return fail(
      `The tick's result could not be sent to the LoopX App: ${reason}. The result is in this job's summary; the App will record the tick as a host failure when its lease expires.`,
    );
  }
  const wake = answer.next.nextWakeAt ? answer.next.nextWakeAt.toISOString() : "none";
  extra.push(`**Next:** ${answer.next.route} — ${answer.next.reason} (next wake ${wake})`);
  outputs["next-route"] = answer.next.route;
  outputs["next-wake-at"] = answer.next.nextWakeAt ? wake : "";
  if (answer.interrupted) {
    extra.push(
      answer.interrupted === "stopped"
        ? "**Stopped:** the goal was stopped while the slice ran; its usage is charged and nothing is pushed."
        : "**Paused:** the goal was paused while the slice ran; its work in progress is pushed with its handoff.",
    );
  }

  const grant = answer.push;
  if (grant) {
    secrets.add(grant.token);
    let pushed: PushOutcome | null = null;
    try {
      if (grant.branch !== lease.branch) {
        return fail(
          `The App granted a push to ${grant.branch}, not this tick's branch ${lease.branch}; nothing was pushed.`,
        );
      }
      const bundlePath = tickPath(ctx.tickDir, "bundle");
      if (!existsSync(bundlePath)) {
        return fail(
          `The result has commits but ${bundlePath} is missing: upload the agent's bundle with the result.`,
        );
      }
      pushed = await pushBundle({
        bundlePath,
        branch: grant.branch,
        remoteUrl: `${env.serverUrl}/${env.repository}.git`,
        token: grant.token,
        allowWorkflowPaths: grant.allowWorkflowPaths,
        protectedPaths: grant.protectedPaths,
        heldPaths: grant.heldPaths,
        message: sliceMessage(lease.todo, lease.tickId),
        redact: (t) => secrets.redact(t),
      });
      if (pushed.status === "refused") {
        const shown = pushed.paths.map((p) => `\`${p}\``).join(", ");
        extra.push(`**Push refused:** ${pushed.reason} (${shown})`);
        const told = await tellRefused(ctx, lease, grant.branch, {
          reason: pushed.reason.slice(0, 300),
          headSha: pushed.headSha,
          paths: pushed.paths.slice(0, 50).map((p) => p.slice(0, 300)),
          ...(pushed.patch ? { patch: pushed.patch } : {}),
        });
        if (told) extra.push(`**App:** ${told}`);
        if (pushed.held) {
          return fail(
            `Did not push ${grant.branch}: ${pushed.reason} (${pushed.paths.join(", ")}). The todo runs again once the ticks it overlaps have finished.`,
          );
        }
        return fail(
          pushed.patch
            ? `Did not push ${grant.branch}: ${pushed.reason} (${pushed.paths.join(", ")}). Only a person can push workflow files: the patch is on the goal issue, and LoopX opens the pull request once someone pushes it to ${grant.branch}.`
            : `Refused to push ${grant.branch}: ${pushed.reason} (${pushed.paths.join(", ")}). Changes under .github/ need a gate approving \`write:.github\` on the goal issue; other guarded paths need the gate their rule in .github/loopx.yml names.`,
        );
      }
      if (pushed.status === "empty") {
        extra.push("**Branch:** nothing new to push");
        return {
          summary: summary(`LoopX ${lease.todo}: ${result.outcome}`),
          outputs,
          failure: null,
        };
      }
      const pushedBody = PushedRequest.parse({
        leaseToken: lease.leaseToken,
        branch: grant.branch,
        headSha: pushed.headSha,
        ...(pushed.status === "pushed"
          ? { paths: pushed.paths.slice(0, MAX_PUSHED_PATHS).map((p) => p.slice(0, 500)) }
          : {}),
      });
      await ctx.api().post(`/api/v1/ticks/${lease.tickId}/pushed`, pushedBody, PushedResponse);
      outputs.pushed = "true";
      outputs["head-sha"] = pushed.headSha;
      extra.push(
        `**Branch:** \`${grant.branch}\` at \`${pushed.headSha.slice(0, 7)}\`${pushed.status === "up_to_date" ? " (already there)" : ""}`,
      );
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return fail(`Pushing ${grant.branch} failed: ${reason}`);
    } finally {
      await revokeToken(env.apiUrl, grant.token);
    }
  }
  return {
    summary: summary(`LoopX ${lease.todo}: ${result.outcome}`),
    outputs,
    failure: null,
  };
}

/**
 * Tells the App the push was refused, so the goal keeps why and never believes the work
 * landed. Best effort: the step fails on the refusal anyway; a failure to tell is only shown.
 */
async function tellRefused(
  ctx: PhaseContext,
  lease: LeaseFile,
  branch: string,
  refused: PushRefusal,
): Promise<string | null> {
  try {
    const body = PushedRequest.parse({ leaseToken: lease.leaseToken, branch, refused });
    await ctx.api().post(`/api/v1/ticks/${lease.tickId}/pushed`, body, PushedResponse);
    return null;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    core.warning(`The LoopX App was not told the push was refused: ${reason}`);
    return `not told the push was refused (${reason.split("\n")[0]})`;
  }
}

/** The agent's result, or a host failure standing in for it (so the cost is still charged). */
async function loadResult(ctx: PhaseContext, todo: string): Promise<HarnessResult> {
  const agentJob = ctx.input["agent-result"];
  try {
    const result = await readJson(ctx.tickDir, "result", HarnessResultSchema, "agent job");
    if (result && result.todo === todo) return result;
    if (result) return missingResult(todo, `the agent's result names ${result.todo}, not ${todo}`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    core.warning(reason);
    return missingResult(todo, `the agent's result was unreadable: ${reason.split("\n")[0]}`);
  }
  return missingResult(
    todo,
    agentJob && agentJob !== "success"
      ? `the agent job ended with "${agentJob}" before writing its result`
      : "no result file was uploaded by the agent job",
  );
}
