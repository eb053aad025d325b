import { rm } from "node:fs/promises";
import { join } from "node:path";
import * as core from "@actions/core";
import { HarnessResult } from "@loopx/core";
import { OwnRepo, ownWorkspace, runSlice, toHarnessResult } from "@loopx/harness";
import { jailHiddenPaths } from "../jail-paths.ts";
import { meterHarness } from "../meter-harness.ts";
import type { PhaseContext, PhaseResult } from "../phase-context.ts";
import { prepareBranch } from "../prepare-branch.ts";
import { renderResult } from "../render-result.ts";
import { selectHarness } from "../select-harness.ts";
import { sliceMessage } from "../slice-commit.ts";
import { AgentBrief, readJson, tickPath, writeJson } from "../tick-files.ts";

/**
 * ONE bounded slice on the todo's branch, in a jail: its own uid, PID and mount namespaces,
 * nothing of the runner in sight, the model key held by a metering proxy outside. Then the
 * work tree is imported into a repository this step owns and committed once, validation runs
 * in a fresh jail on a clean checkout, and the result and a bundle are written for the report
 * job. When the jail cannot be built or does not hold, the slice fails closed: no commit, the
 * cap charged, the step failed with what is missing.
 */
export async function agent(ctx: PhaseContext): Promise<PhaseResult> {
  const brief = await readJson(ctx.tickDir, "brief", AgentBrief, "ask job");
  if (!brief) {
    throw new Error(
      `${tickPath(ctx.tickDir, "brief")} is missing: download the ask job's \`loopx-ask\` artifact to the tick-dir before the agent phase`,
    );
  }
  // A cancelled run sends this step SIGINT, then SIGTERM 7.5 s later: the slice stops, and its
  // work tree and handoff are written for the report job, which GitHub still runs (`always()`).
  const interrupt = new AbortController();
  const onInterrupt = () => {
    core.warning("The workflow run was cancelled: stopping the slice and keeping its work.");
    interrupt.abort();
  };
  process.once("SIGINT", onInterrupt);
  try {
    return await agentSlice(ctx, brief, interrupt.signal);
  } finally {
    process.removeListener("SIGINT", onInterrupt);
  }
}

async function agentSlice(
  ctx: PhaseContext,
  brief: AgentBrief,
  interrupt: AbortSignal,
): Promise<PhaseResult> {
  const { input, secrets } = ctx;
  const harness = selectHarness(brief.harness, input);
  for (const s of harness.secrets) secrets.add(s);
  const redact = (t: string) => secrets.redact(t);
  const workdir = input.workdir ?? ctx.env.workspace;
  // Before the slice the checkout is still the runner's own: read what the slice starts from.
  const prepared = await prepareBranch({
    workdir,
    branch: brief.branch,
    token: input.token,
    redact,
  });
  const repo = await OwnRepo.create(join(ctx.tickDir, "own.git"));
  const base = await repo.fetch(workdir, "HEAD", "refs/loopx/base");
  core.info(
    `${prepared.existed ? "Continuing" : "Starting"} ${brief.branch} at ${base} with ${harness.name}`,
  );

  const { limits } = brief;
  const metered = await meterHarness(harness, {
    usd: limits.usd,
    hard: limits.usdFrom === "budget",
  });
  if (metered.proxy) secrets.add(metered.proxy.capability);
  const hidden = jailHiddenPaths(process.env, ctx.tickDir);
  const minute = ctx.env.minuteMs;
  const report = await runSlice(metered.adapter, {
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
    ...(brief.checkpointAt ? { deadline: brief.checkpointAt } : {}),
    env: metered.env,
    secrets: secrets.list(),
    allowedTools: brief.allowedTools,
    jail: { hidden },
    workspace: ownWorkspace({
      repo,
      workdir,
      base,
      branch: brief.branch,
      message: sliceMessage(brief.todo, brief.tickId),
      scratchRoot: ctx.tickDir,
      hidden,
    }),
    ...(metered.proxy ? { metered: metered.proxy.reading } : {}),
    sliceRoot: ctx.tickDir,
    interrupt,
  }).finally(() => metered.close());
  // Later steps (actions/checkout's post step) run git in the workspace: not in a repository
  // the agent wrote, whose config could name programs to run.
  await rm(join(workdir, ".git"), { recursive: true, force: true });

  const failedClosed = report.jailFailure !== null;
  const mapped = toHarnessResult(report, brief.todo);
  const result = HarnessResult.parse({
    ...mapped,
    commits: failedClosed ? [] : mapped.commits,
    cost: failedClosed ? { ...mapped.cost, usd: limits.usd } : mapped.cost,
    metering: failedClosed ? "unmetered" : metered.metering,
  });
  const resultPath = await writeJson(ctx.tickDir, "result", result);
  const bundlePath = tickPath(ctx.tickDir, "bundle");
  const head = result.commits.at(-1)?.sha ?? base;
  if (result.commits.length > 0) {
    // Only what the remote lacks: the report job fetches the base from GitHub first.
    await repo.bundle(bundlePath, `refs/heads/${brief.branch}`, [base]);
  }

  if (result.outcome === "failed" && !failedClosed) {
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
    failure: failedClosed
      ? `LoopX ${brief.todo}: the slice failed closed, nothing will be pushed and the tick is charged its cap — ${report.jailFailure}`
      : null,
  };
}
