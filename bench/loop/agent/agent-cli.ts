/**
 * The bench's agent as a command, so the same policy runs as LoopX's shell harness and in a
 * scheduled-workflow baseline: `npx tsx bench/loop/agent/agent-cli.ts` in the checkout.
 *
 *   LOOPX_BRIEF_MD or AGENT_PROMPT_FILE  the prompt (a file)
 *   AGENT_SKILL                          the skill: a JSON file, or the JSON itself
 *   AGENT_PROFILE                        competent (default), flaky, stuck, overspending, injected, dies
 *   AGENT_SEED                           an integer (default 0): the slice's luck; in a
 *                                        workflow run, mixed with $GITHUB_RUN_ID and
 *                                        $GITHUB_RUN_ATTEMPT, so each run draws anew
 *   AGENT_TOOLS                          optional: {issueComments, pull} as a file or JSON
 *   AGENT_GITHUB_API                     optional, instead: read them from this REST API, for the
 *                                        repository, issue and branch $LOOPX_BRIEF names (no
 *                                        token: the repository must be public)
 *   LOOPX_RESULT                         optional: where LoopX's shell harness wants its result
 *
 * Prints the outcome as one JSON line. A slice that dies exits 137 and writes no result, as a
 * killed process would; bad input exits 2.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { z } from "zod";
import type { ReadTools } from "./agent-types.ts";
import {
  BriefTarget,
  ProfileSchema,
  SeedSchema,
  SkillSchema,
  ToolsSnapshot,
} from "./cli-schemas.ts";
import { dirTree } from "./dir-tree.ts";
import { readGithubTools } from "./github-read-tools.ts";
import { runAgent } from "./run-agent.ts";
import { workflowRunSeed } from "./seeded-random.ts";
import { toLoopxResult } from "./to-claim.ts";

class InputError extends Error {}

async function main(env: NodeJS.ProcessEnv): Promise<number> {
  const promptFile = env.LOOPX_BRIEF_MD || env.AGENT_PROMPT_FILE;
  if (!promptFile) {
    throw new InputError(
      "no prompt: set $LOOPX_BRIEF_MD (LoopX's shell harness does) or $AGENT_PROMPT_FILE to a file holding it",
    );
  }
  const prompt = readText(promptFile, "the prompt");
  if (!env.AGENT_SKILL) {
    throw new InputError("no skill: set $AGENT_SKILL to a skill JSON file (or the JSON itself)");
  }
  const skill = parse(SkillSchema, jsonOf(env.AGENT_SKILL, "$AGENT_SKILL"), "$AGENT_SKILL");
  const profile = parse(ProfileSchema, env.AGENT_PROFILE || "competent", "$AGENT_PROFILE");
  const seed = workflowRunSeed(parse(SeedSchema, env.AGENT_SEED || "0", "$AGENT_SEED"), {
    ...(env.GITHUB_RUN_ID ? { id: env.GITHUB_RUN_ID } : {}),
    ...(env.GITHUB_RUN_ATTEMPT ? { attempt: env.GITHUB_RUN_ATTEMPT } : {}),
  });
  const tools = await toolsFrom(env);

  const outcome = runAgent({ prompt, tree: dirTree(process.cwd()), tools, skill, profile, seed });
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
  if (outcome.died) return 137;
  if (env.LOOPX_RESULT) {
    writeFileSync(env.LOOPX_RESULT, `${JSON.stringify(toLoopxResult(outcome, skill), null, 2)}\n`);
  }
  return 0;
}

async function toolsFrom(env: NodeJS.ProcessEnv): Promise<ReadTools> {
  if (env.AGENT_TOOLS && env.AGENT_GITHUB_API) {
    throw new InputError("set $AGENT_TOOLS or $AGENT_GITHUB_API, not both");
  }
  if (env.AGENT_GITHUB_API) {
    if (!env.LOOPX_BRIEF) {
      throw new InputError(
        "$AGENT_GITHUB_API needs $LOOPX_BRIEF (LoopX's brief JSON) to know the repository, issue and branch",
      );
    }
    const target = parse(BriefTarget, jsonOf(env.LOOPX_BRIEF, "$LOOPX_BRIEF"), "$LOOPX_BRIEF");
    return readGithubTools(
      { api: env.AGENT_GITHUB_API, repo: target.repo },
      target.issue,
      target.branch,
    );
  }
  const snapshot = env.AGENT_TOOLS
    ? parse(ToolsSnapshot, jsonOf(env.AGENT_TOOLS, "$AGENT_TOOLS"), "$AGENT_TOOLS")
    : { issueComments: [], pull: null };
  return { issueComments: () => snapshot.issueComments, pull: () => snapshot.pull };
}

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    throw new InputError(`could not read ${what} from ${path}: ${String(err)}`);
  }
}

/** A value that is JSON itself when it starts like JSON, else a file holding it. */
function jsonOf(value: string, name: string): unknown {
  const text = /^\s*[[{]/.test(value) ? value : readText(value, name);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new InputError(
      `${name} is not JSON (${String(err)}); give a JSON file or the JSON itself`,
    );
  }
}

function parse<T extends z.ZodType>(schema: T, data: unknown, name: string): z.infer<T> {
  const parsed = schema.safeParse(data);
  if (!parsed.success)
    throw new InputError(`${name} is malformed: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

// exitCode rather than exit(): stdout is flushed before the process ends.
try {
  process.exitCode = await main(process.env);
} catch (err) {
  if (!(err instanceof InputError)) throw err;
  process.stderr.write(`agent-cli: ${err.message}\n`);
  process.exitCode = 2;
}
