import * as core from "@actions/core";
import { HarnessResult } from "@loopx/core";
import { runSlice, toHarnessResult } from "@loopx/harness";
import { commitWork } from "../commit-work.ts";
import type { PhaseContext, PhaseResult } from "../phase-context.ts";
import { prepareBranch } from "../prepare-branch.ts";
import { renderResult } from "../render-result.ts";
import { runGit } from "../run-git.ts";
import { selectHarness } from "../select-harness.ts";
import { AgentBrief, readJson, tickPath, writeJson } from "../tick-files.ts";

/**
 * ONE bounded slice on the todo's branch. Runs with no OIDC and a read-only token: it only
 * writes files (result JSON and a git bundle of the branch) for the report job to send.
 */
export async function agent(ctx: PhaseContext): Promise<PhaseResult> {
  const { input, secrets } = ctx;
  const brief = await readJson(ctx.tickDir, "brief", AgentBrief, "ask job");
  if (!brief) {
    throw new Error(
      `${tickPath(ctx.tickDir, "brief")} is missing: download the ask job's \`loopx-ask\` artifact to the tick-dir before the agent phase`,
    );
  }
  const harness = selectHarness(brief.harness, input);
  for (const s of harness.secrets) secrets.add(s);
  const redact = (t: string) => secrets.redact(t);
  const workdir = input.workdir ?? ctx.env.workspace;
  const prepared = await prepareBranch({
    workdir,
    branch: brief.branch,
    token: input.token,
    redact,
  });
  core.info(
    `${prepared.existed ? "Continuing" : "Starting"} ${brief.branch} at ${prepared.base} with ${harness.name}`,
  );

  const { limits } = brief;
  const minute = ctx.env.minuteMs;
  const report = await runSlice(harness.adapter, {
    workdir,
    todo: brief.todo,
    brief: { text: brief.briefText, json: brief.brief },
    limits: {
      wallMs: Math.round(limits.wallMinutes * minute),
      idleMs: Math.round(limits.idleMinutes * minute),
      maxTurns: limits.maxTurns,
      maxUsd: limits.usd,
    },
    validationCommand: brief.validationCommand,
    env: harness.env,
    secrets: harness.secrets,
    allowedTools: brief.allowedTools,
  });

  const wip = await commitWork({
    workdir,
    todo: brief.todo,
    tickId: brief.tickId,
    outcome: report.outcome,
    reason: report.reason,
  });
  const mapped = toHarnessResult(report, brief.todo);
  const result = HarnessResult.parse({
    ...mapped,
    commits: wip ? [...mapped.commits, wip].slice(-100) : mapped.commits,
  });
  const head = (await runGit(workdir, ["rev-parse", "HEAD"])).stdout.trim();
  const resultPath = await writeJson(ctx.tickDir, "result", result);
  const bundlePath = tickPath(ctx.tickDir, "bundle");
  await runGit(workdir, ["bundle", "create", bundlePath, `refs/heads/${brief.branch}`], { redact });

  if (result.outcome === "failed") {
    // The tick failed, not the action: the report job still sends it (and its cost).
    core.warning(redact(`LoopX ${brief.todo}: ${report.outcome} — ${report.reason}`));
  }
  return {
    summary: renderResult({
      title: `LoopX agent: ${brief.todo} on \`${brief.branch}\` (${harness.name})`,
      result,
      reason: report.reason,
    }),
    outputs: {
      outcome: result.outcome,
      "slice-outcome": report.outcome,
      "head-sha": head,
      "result-file": resultPath,
      "bundle-file": bundlePath,
    },
    failure: null,
  };
}
