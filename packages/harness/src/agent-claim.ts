import { constants } from "node:fs";
import { lstat, open } from "node:fs/promises";
import { dirname } from "node:path";
import { ContinuationInput, EvidenceKind } from "@loopx/core";
import { z } from "zod";

/** The result file is read up to this size; a larger one is malformed. */
export const CLAIM_MAX_BYTES = 256 * 1024;

/**
 * What the agent writes to $LOOPX_RESULT. It is a claim: the outcome here never decides
 * progress (validation and the work tree do). Lengths are clamped later, not refused,
 * so a verbose but well-formed handoff still counts.
 */
export const AgentClaim = z.object({
  outcome: z.enum(["progress", "completed", "no_change", "failed"]),
  handoff: z.object({
    done: z.string(),
    next: z.string(),
    questions: z.array(z.string()).default([]),
  }),
  evidence: z
    .array(
      z.object({
        kind: EvidenceKind.default("note"),
        summary: z.string().trim().min(1),
        url: z.url().nullable().default(null),
        sha: z
          .string()
          .regex(/^[0-9a-f]{7,64}$/)
          .nullable()
          .default(null),
      }),
    )
    .default([]),
  continuation: ContinuationInput.nullable().default(null),
  proposedTodos: z
    .array(
      z.object({
        title: z.string().trim().min(1),
        detail: z.string().default(""),
        requiredScopes: z.array(z.string()).default([]),
        paths: z.array(z.string()).default([]),
        after: z.string().trim().min(1).nullish(),
      }),
    )
    .default([]),
  gateRequests: z
    .array(z.object({ question: z.string().trim().min(1), scopes: z.array(z.string()).min(1) }))
    .default([]),
  /**
   * A job listed in the repository's `.github/loopx.yml` to dispatch on this todo's branch
   * instead of waiting for it; the App checks the name and inputs.
   */
  job: z
    .object({
      name: z.string(),
      inputs: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
    })
    .nullish(),
  /** A planning slice's revisions of agents' open todos; the kernel decides which apply. */
  revisions: z
    .object({
      drop: z.array(z.string()).default([]),
      reword: z
        .array(
          z.object({
            todo: z.string(),
            title: z.string().trim().min(1),
            detail: z.string().default(""),
          }),
        )
        .default([]),
      order: z.array(z.string()).default([]),
    })
    .nullish(),
});
export type AgentClaim = z.infer<typeof AgentClaim>;

export type ClaimRead =
  | { ok: true; claim: AgentClaim; raw: string }
  | { ok: false; error: string; raw: string };

/**
 * Reads and validates the agent's result file; never throws. The agent owned the directory,
 * so neither it nor the file may be a link (the action would read wherever it points).
 */
export async function readAgentClaim(path: string): Promise<ClaimRead> {
  let raw: string;
  try {
    const buf = await readPlainFile(path);
    if (buf.length > CLAIM_MAX_BYTES) {
      return {
        ok: false,
        error: `result file is ${buf.length} bytes, over the ${CLAIM_MAX_BYTES}-byte limit`,
        raw: buf.subarray(0, 4096).toString("utf8"),
      };
    }
    raw = buf.toString("utf8");
  } catch (err) {
    const missing = err instanceof Error && "code" in err && err.code === "ENOENT";
    return {
      ok: false,
      error: missing
        ? "the agent wrote no result file ($LOOPX_RESULT)"
        : `could not read the result file: ${String(err)}`,
      raw: "",
    };
  }
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch (err) {
    return {
      ok: false,
      error: `result file is not JSON: ${err instanceof Error ? err.message : String(err)}`,
      raw,
    };
  }
  const parsed = AgentClaim.safeParse(data);
  if (!parsed.success) {
    return { ok: false, error: `result file is malformed: ${z.prettifyError(parsed.error)}`, raw };
  }
  return { ok: true, claim: parsed.data, raw };
}

/** A regular file, opened without following a link, read up to one byte past the cap. */
async function readPlainFile(path: string): Promise<Buffer> {
  const dir = await lstat(dirname(path));
  if (!dir.isDirectory()) throw new Error(`${dirname(path)} is not a directory`);
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error("the result is not a regular file");
    const buf = Buffer.alloc(Math.min(stat.size, CLAIM_MAX_BYTES + 1));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
