import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { redactFields } from "@loopx/core";
import { z } from "zod";
import { readAgentClaim } from "./agent-claim.ts";
import { decideOutcome } from "./decide-outcome.ts";
import { type Jail, openJail } from "./jail/open-jail.ts";
import { JailError } from "./jail/privilege.ts";
import { type BoundedRun, DEFAULT_OUTPUT_CAP, runBounded } from "./run-bounded.ts";
import { secretValues } from "./secret-values.ts";
import { slicePrompt } from "./slice-prompt.ts";
import type {
  HarnessAdapter,
  LaunchContext,
  MeterReading,
  SliceInput,
  SliceReport,
  ValidationRun,
  WorkspaceDelta,
} from "./slice-types.ts";
import { hostWorkspace } from "./slice-workspace.ts";

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
 * Runs ONE bounded slice of a harness: writes the brief, starts the harness under wall/idle/
 * turn/USD limits — in a jail when `input.jail` is given (its own uid, PID and mount
 * namespaces; see jail/open-jail.ts) — then, once every process of it is gone, reads the
 * agent's claim, observes the work tree and runs the validation through `input.workspace`,
 * and returns a typed, redacted report. Never throws for anything the harness does; a jail
 * that cannot be built or did not hold is a host failure with `jailFailure` set.
 */
export async function runSlice(adapter: HarnessAdapter, input: SliceInput): Promise<SliceReport> {
  const checked = SliceLimitsSchema.safeParse(input.limits);
  if (!checked.success) {
    throw new RangeError(`runSlice: invalid limits: ${z.prettifyError(checked.error)}`);
  }
  const secrets = secretValues(input.secrets, input.env);
  const workspace = input.workspace ?? hostWorkspace(input.workdir);
  const scratchDir = await mkdtemp(join(input.sliceRoot ?? tmpdir(), "loopx-slice-"));
  const started = Date.now();
  const stops = [input.signal, input.interrupt].filter((x) => x !== undefined);
  const stopSignal = stops.length > 0 ? AbortSignal.any(stops) : undefined;
  const interrupted = () => input.interrupt?.aborted === true;
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
    await mkdir(join(scratchDir, "home"));
    await writeFile(ctx.briefJsonPath, `${JSON.stringify(input.brief.json, null, 2)}\n`);
    await writeFile(ctx.briefMdPath, ctx.prompt);

    await workspace.before();
    const spec = await adapter.launch(ctx);
    const meter = adapter.meter(ctx);
    const { limits } = input;
    // The checkpoint binds when it comes before the wall limit: the harness is stopped there.
    const untilDeadline = input.deadline ? input.deadline.getTime() - Date.now() : Infinity;
    const deadlineBinds = untilDeadline < limits.wallMs;
    const wallMs = deadlineBinds ? Math.max(1, Math.floor(untilDeadline)) : limits.wallMs;
    const reading = (): MeterReading => {
      const r = meter.reading();
      return input.metered ? { ...r, ...input.metered() } : r;
    };
    let jail: Jail | null = null;
    let jailFailure: string | null = null;
    try {
      if (input.jail) {
        jail = await openJail({
          writable: [input.workdir, scratchDir],
          hidden: input.jail.hidden,
          home: join(scratchDir, "home"),
        });
      }
    } catch (error) {
      jailFailure = error instanceof Error ? error.message : String(error);
    }
    const run = jailFailure
      ? notRun(jailFailure)
      : await runBounded({
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
          wallMs,
          idleMs: limits.idleMs,
          outputCapBytes: input.outputCapBytes ?? DEFAULT_OUTPUT_CAP,
          ...(input.killGraceMs !== undefined ? { killGraceMs: input.killGraceMs } : {}),
          ...(stopSignal ? { signal: stopSignal } : {}),
          ...(jail ? { spawner: jail.spawner } : {}),
          onLine: (line, stream, stop) => {
            meter.onLine(line, stream);
            const r = reading();
            if (r.usd > limits.maxUsd) stop("over_budget");
            else if (r.turns > limits.maxTurns) stop("turn_limit");
          },
        });
    try {
      await jail?.close();
    } catch (error) {
      jailFailure = error instanceof Error ? error.message : String(error);
    }
    const verdict = meter.verdict({ code: run.exitCode, signal: run.signal });
    const claim = await readAgentClaim(ctx.resultPath);
    const cut = run.stop === "aborted" && !interrupted();
    // Cut at the checkpoint, like an interrupt: the tree is kept as work in progress and the
    // next slice validates it; validation now would spend the report's share of the lease.
    const checkpointed = run.stop === "wall" && deadlineBinds && !interrupted();
    const keepOnly = () => interrupted() || checkpointed;
    const ran = !cut && run.stop !== "spawn_failed" && jailFailure === null;
    let delta: WorkspaceDelta = { known: false, changed: false, commits: [], changedFiles: [] };
    let validation: ValidationRun | null = null;
    try {
      if (ran) delta = await workspace.after();
      // Validation runs even after a limit: its result is evidence for the next slice.
      // An interrupted slice has seconds left before the runner kills it: its tree is kept as
      // work in progress, and the next slice validates it.
      if (input.validationCommand && ran && !keepOnly()) {
        validation = await workspace.validate({
          command: input.validationCommand,
          env: { ...baseEnv(), LOOPX_TODO: input.todo },
          timeoutMs: input.validationTimeoutMs ?? DEFAULT_VALIDATION_TIMEOUT_MS,
          secrets,
          ...(stopSignal ? { signal: stopSignal } : {}),
        });
      }
      if (keepOnly()) validation = null;
    } catch (error) {
      if (!(error instanceof JailError)) throw error;
      jailFailure = error.message;
    }
    const final = reading();
    const decided = jailFailure
      ? { outcome: "host_failure" as const, failure: "host_failure" as const, reason: jailFailure }
      : interrupted()
        ? {
            outcome: "interrupted" as const,
            failure: null,
            reason: "the workflow run was cancelled; the work tree was kept, not validated",
          }
        : checkpointed
          ? {
              outcome: "checkpoint" as const,
              failure: null,
              reason: `cut at the tick's checkpoint (${input.deadline?.toISOString()}), before its lease ends; the work tree was kept, not validated`,
            }
          : decideOutcome({
              stop: run.stop,
              exitCode: run.exitCode,
              spawnError: run.spawnError,
              verdict,
              reading: final,
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
        usd: final.usd,
        tokens: final.tokens,
        runnerMinutes: (Date.now() - started) / 60_000,
      },
      turns: final.turns,
      sessionId: final.sessionId,
      claim: claim.ok ? claim.claim : null,
      claimError: claim.ok ? null : claim.error,
      delta: jailFailure ? { ...delta, changed: false, commits: [] } : delta,
      validation,
      process: {
        stop: run.stop,
        exitCode: run.exitCode,
        signal: run.signal,
        durationMs: run.durationMs,
        pid: run.pid,
      },
      jail: jail ? { uid: jail.uid } : null,
      jailFailure,
      withheld: [],
      outputTail: `${run.tail}${rawTail.slice(0, 8192)}`,
      outputBytes: run.totalBytes,
      outputTruncated: run.truncated,
    };
    const withheld: string[] = [];
    const shown = redactFields(report, secrets, withheld);
    return { ...shown, withheld: withheld.slice(0, 50) };
  } finally {
    await rm(scratchDir, { recursive: true, force: true });
  }
}

/** What runBounded would have said of a harness that never started. */
function notRun(why: string): BoundedRun {
  return {
    stop: "spawn_failed",
    exitCode: null,
    signal: null,
    durationMs: 0,
    pid: null,
    tail: "",
    totalBytes: 0,
    truncated: false,
    spawnError: why,
  };
}
