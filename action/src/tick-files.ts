import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { AskResponse, HarnessResult } from "@loopx/core";
import { z } from "zod";

/** The `run: true` answer of POST /api/v1/ticks. */
const RunAnswer = AskResponse.options[1];
export type RunAnswer = z.infer<typeof RunAnswer>;

/** What the agent job receives: the ask answer without the lease token (it never needs it). */
export const AgentBrief = RunAnswer.omit({ leaseToken: true });
export type AgentBrief = z.infer<typeof AgentBrief>;

/** What only the report job receives: enough to bind the result to its tick. */
export const LeaseFile = z.object({
  goal: z.number().int().positive(),
  tickId: RunAnswer.shape.tickId,
  leaseToken: RunAnswer.shape.leaseToken,
  todo: RunAnswer.shape.todo,
  branch: RunAnswer.shape.branch,
  harness: z.string().min(1),
});
export type LeaseFile = z.infer<typeof LeaseFile>;

/**
 * The files the phases hand each other through workflow artifacts. The workflow uploads and
 * downloads them (actions/upload-artifact, or the sandbox's stand-in); the action only writes
 * and reads this directory.
 */
export const TICK_FILES = {
  /** Uploaded as `loopx-ask` for the agent job. */
  brief: "ask.json",
  /** Uploaded as `loopx-lease` for the report job only. */
  lease: "lease.json",
  /** Uploaded as `loopx-result` with the bundle. */
  result: "result.json",
  bundle: "branch.bundle",
} as const;

export function tickPath(dir: string, file: keyof typeof TICK_FILES): string {
  return join(dir, TICK_FILES[file]);
}

export async function writeJson(dir: string, file: keyof typeof TICK_FILES, value: unknown) {
  await mkdir(dir, { recursive: true });
  const path = tickPath(dir, file);
  await writeFile(path, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  return path;
}

/**
 * Reads and validates one of the tick's files; null when absent. A file that is present but
 * invalid throws, naming the file and what is wrong.
 */
export async function readJson<S extends z.ZodType>(
  dir: string,
  file: keyof typeof TICK_FILES,
  schema: S,
  producedBy: string,
): Promise<z.infer<S> | null> {
  const path = tickPath(dir, file);
  if (!existsSync(path)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new Error(`${path} (from the ${producedBy}) is not JSON`, { cause: error });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `${path} (from the ${producedBy}) is invalid:\n${z.prettifyError(parsed.error)}`,
      {
        cause: parsed.error,
      },
    );
  }
  return parsed.data;
}

export { HarnessResult };
