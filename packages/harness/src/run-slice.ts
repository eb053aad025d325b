import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { readAgentClaim } from "./agent-claim.ts";
import { decideOutcome } from "./decide-outcome.ts";
import { redactDeep, secretValues } from "./redact-deep.ts";
import { DEFAULT_OUTPUT_CAP, runBounded } from "./run-bounded.ts";
import { runValidation } from "./run-validation.ts";
import { slicePrompt } from "./slice-prompt.ts";
import type { HarnessAdapter, LaunchContext, SliceInput, SliceReport } from "./slice-types.ts";
import { snapshotWorkspace, workspaceDelta } from "./workspace-delta.ts";

/** Limits come from config and workflow inputs: a bad one is refused before anything runs. */
export const SliceLimitsSchema = z.object({
  wallMs: z.number().int().positive(),
  idleMs: z.number().int().positive(),
  maxTurns: z.number().int().positive(),
  maxUsd: z.number().nonnegative().finite(),
});

const DEFAULT_VALIDATION_TIMEOUT_MS = 10 * 60_000;

/**
 * The only variables a harness inherits from the runner; everything else must be handed in
 * through `input.env`, so control-plane credentials in the job's environment never leak in.
 */
const INHERITED = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "TMPDIR",
];

export function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED) {
    const v = process.env[name];
    if (v !== undefined) env[name] = v;
  }
  return env;
}

/**
 * Runs ONE bounded slice of a harness: writes the brief, starts the harness in its own process
 * group under wall/idle/turn/USD limits, reads the agent's result claim, runs the validation
 * command, compares the work tree, and returns a typed, redacted report. Never throws for
 * anything the harness does; an exception here is a bug or an unusable work dir.
 */
export async function runSlice(adapter: HarnessAdapter, input: SliceInput): Promise<SliceReport> {
  const checked = SliceLimitsSchema.safeParse(input.limits);
  if (!checked.success) {
    throw new RangeError(`runSlice: invalid limits: ${z.prettifyError(checked.error)}`);
  }
  const secrets = secretValues(input.secrets, input.env);
  const scratchDir = await mkdtemp(join(tmpdir(), "loopx-slice-"));
  try {
    const ctx: LaunchContext = {
      input,
      resultPath: join(scratchDir, "result", "result.json"),
      briefJsonPath: join(scratchDir, "brief.json"),
      briefMdPath: join(scratchDir, "brief.md"),
      prompt: "",
      scratchDir,
    };
    ctx.prompt = slicePrompt(input.brief.text, ctx.resultPath, input.todo);
    await mkdir(join(scratchDir, "result"));
    await writeFile(ctx.briefJsonPath, `${JSON.stringify(input.brief.json, null, 2)}\n`);
    await writeFile(ctx.briefMdPath, ctx.prompt);

    const started = Date.now();
    const before = await snapshotWorkspace(input.workdir);
    const spec = await adapter.launch(ctx);
    const meter = adapter.meter(ctx);
    const { limits } = input;
    const run = await runBounded({
      command: spec.command,
      args: spec.args,
      cwd: input.workdir,
      env: {
        ...baseEnv(),
        ...input.env,
        LOOPX_BRIEF: ctx.briefJsonPath,
        LOOPX_BRIEF_MD: ctx.briefMdPath,
        LOOPX_RESULT: ctx.resultPath,
        LOOPX_TODO: input.todo,
        ...spec.env,
      },
      wallMs: limits.wallMs,
      idleMs: limits.idleMs,
      outputCapBytes: input.outputCapBytes ?? DEFAULT_OUTPUT_CAP,
      ...(input.killGraceMs !== undefined ? { killGraceMs: input.killGraceMs } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
      onLine: (line, stream, stop) => {
        meter.onLine(line, stream);
        const r = meter.reading();
        if (r.usd > limits.maxUsd) stop("over_budget");
        else if (r.turns > limits.maxTurns) stop("turn_limit");
      },
    });
    const reading = meter.reading();
    const verdict = meter.verdict({ code: run.exitCode, signal: run.signal });
    const claim = await readAgentClaim(ctx.resultPath);
    const ran = run.stop !== "aborted" && run.stop !== "spawn_failed";
    // Validation runs even after a limit: its result is evidence for the next slice.
    const validation =
      input.validationCommand && ran
        ? await runValidation({
            command: input.validationCommand,
            workdir: input.workdir,
            env: { ...baseEnv(), LOOPX_TODO: input.todo },
            timeoutMs: input.validationTimeoutMs ?? DEFAULT_VALIDATION_TIMEOUT_MS,
            secrets,
            ...(input.signal ? { signal: input.signal } : {}),
          })
        : null;
    const delta = await workspaceDelta(input.workdir, before);
    const decided = decideOutcome({
      stop: run.stop,
      exitCode: run.exitCode,
      spawnError: run.spawnError,
      verdict,
      reading,
      limits,
      claim,
      validation,
      delta,
    });
    const rawTail = claim.ok || claim.raw === "" ? "" : `\n--- result file ---\n${claim.raw}`;
    const report: SliceReport = {
      harness: adapter.name,
      todo: input.todo,
      ...decided,
      cost: {
        usd: reading.usd,
        tokens: reading.tokens,
        runnerMinutes: (Date.now() - started) / 60_000,
      },
      turns: reading.turns,
      sessionId: reading.sessionId,
      claim: claim.ok ? claim.claim : null,
      claimError: claim.ok ? null : claim.error,
      delta,
      validation,
      process: {
        stop: run.stop,
        exitCode: run.exitCode,
        signal: run.signal,
        durationMs: run.durationMs,
        pid: run.pid,
      },
      outputTail: `${run.tail}${rawTail.slice(0, 8192)}`,
      outputBytes: run.totalBytes,
      outputTruncated: run.truncated,
    };
    return redactDeep(report, secrets);
  } finally {
    await rm(scratchDir, { recursive: true, force: true });
  }
}
