/**
 * `--real-model claude|codex` and `--trials N`, read from the command line and checked with
 * the environment before any cell runs: a run that cannot finish says so while it costs
 * nothing.
 */
import { z } from "zod";
import { RealModelError, type RealModelSetup, realModelSetup } from "./agent/real-model-setup.ts";

export const DEFAULT_TRIALS = 5;

export interface RealModelRun {
  setup: RealModelSetup;
  trials: number;
}

const Trials = z.coerce.number().int().min(1);

/** The real-model run the flags ask for, or null for the scripted agent's run. */
export function realModelFlags(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): RealModelRun | null {
  const model = flagValue(argv, "--real-model");
  const trials = flagValue(argv, "--trials");
  if (model === undefined) {
    if (trials !== undefined) {
      throw new RealModelError(
        "--trials applies to --real-model runs only: the scripted agent replays a cell exactly, so a second trial would repeat the first",
      );
    }
    return null;
  }
  let count = DEFAULT_TRIALS;
  if (trials !== undefined) {
    const parsed = Trials.safeParse(trials);
    if (!parsed.success) {
      throw new RealModelError(
        `--trials takes a whole number of trials per cell, at least ${DEFAULT_TRIALS}, not ${JSON.stringify(trials ?? "")}`,
      );
    }
    if (parsed.data < DEFAULT_TRIALS) {
      throw new RealModelError(
        `--trials ${parsed.data} is too few: a real model's reward varies from run to run, and the 95 % interval of fewer than ${DEFAULT_TRIALS} trials per cell is too wide to compare arms; give --trials ${DEFAULT_TRIALS} or more`,
      );
    }
    count = parsed.data;
  }
  return { setup: realModelSetup(model ?? undefined, env), trials: count };
}

/**
 * The value after `flag`: undefined when the flag is absent, null when nothing (or another
 * flag) follows it.
 */
function flagValue(argv: readonly string[], flag: string): string | null | undefined {
  const at = argv.indexOf(flag);
  if (at < 0) return undefined;
  const value = argv[at + 1];
  return value === undefined || value.startsWith("--") ? null : value;
}
