/**
 * A real model as the arms' agent: the same contract as the scripted runAgent. The slice's
 * tree is copied to a throwaway directory, the model's CLI runs there on the arm's prompt,
 * and what it left is copied back. Its claims come from the result file it was asked to
 * write; a slice whose CLI failed (an error, a turn limit, a timeout) or that wrote no valid
 * file claimed nothing and is reported as one that ended without a result (`died`), which
 * every arm already treats as no progress. Profile, skill and seed shape the scripted agent
 * only: a real model brings its own competence and randomness.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NOTES_PATH } from "./agent-notes.ts";
import type { Agent, AgentInput, AgentOutcome, WorkTree } from "./agent-types.ts";
import { dirTree } from "./dir-tree.ts";
import { type CliEnd, claudeArgs, claudeEnd } from "./real-claude-cli.ts";
import { codexArgs, codexEnd, codexWatcher } from "./real-codex-cli.ts";
import { realModelPrompt } from "./real-model-prompt.ts";
import { readModelResult } from "./real-model-result.ts";
import type { RealModelSetup } from "./real-model-setup.ts";
import { runCli } from "./real-run-cli.ts";

export interface RealAgentLimits {
  /** Claude's --max-turns; for codex, the actions it may start. */
  maxTurns: number;
  timeoutMs: number;
}

export const DEFAULT_LIMITS: RealAgentLimits = { maxTurns: 60, timeoutMs: 30 * 60_000 };

export function realModelAgent(setup: RealModelSetup, limits = DEFAULT_LIMITS): Agent {
  return async (input) => {
    const scratch = mkdtempSync(join(tmpdir(), `loopx-bench-${setup.name}-`));
    try {
      return await slice(setup, limits, input, scratch);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  };
}

async function slice(
  setup: RealModelSetup,
  limits: RealAgentLimits,
  input: AgentInput,
  scratch: string,
): Promise<AgentOutcome> {
  const workDir = join(scratch, "work");
  const resultDir = join(scratch, "out");
  const home = join(scratch, "home");
  for (const d of [workDir, resultDir, home]) mkdirSync(d);
  const before = filesOf(input.tree);
  const work = dirTree(workDir);
  for (const [path, content] of before) work.write(path, content);
  const resultPath = join(resultDir, "result.json");
  const prompt = realModelPrompt({ prompt: input.prompt, tools: input.tools, workDir, resultPath });

  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? home,
    ...setup.env,
  };
  let end: CliEnd;
  if (setup.name === "claude") {
    const run = await runCli({
      bin: setup.bin,
      args: claudeArgs({ prompt, maxTurns: limits.maxTurns, resultDir }),
      cwd: workDir,
      // A fresh config directory: no settings, memory or sessions of the machine's user.
      env: {
        ...env,
        CLAUDE_CONFIG_DIR: home,
        DISABLE_TELEMETRY: "1",
        DISABLE_AUTOUPDATER: "1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      },
      timeoutMs: limits.timeoutMs,
    });
    end = claudeEnd(run, limits.maxTurns);
  } else {
    const run = await runCli({
      bin: setup.bin,
      args: codexArgs({ prompt, workDir, responsesUrl: setup.responsesUrl ?? "" }),
      cwd: workDir,
      env: { ...env, CODEX_HOME: home },
      timeoutMs: limits.timeoutMs,
      watch: codexWatcher(limits.maxTurns),
    });
    end = codexEnd(run);
  }

  const wroteFiles = copyBack(input.tree, before, filesOf(dirTree(workDir)));
  const noClaim = (why: string): AgentOutcome => ({
    todo: null,
    progressed: false,
    finishedTodo: false,
    allDone: false,
    wroteFiles,
    proposedTodos: [],
    questions: [],
    tokens: end.tokens,
    died: true,
    obeyed: [],
    summary: `${setup.name} claimed nothing: ${why}`,
  });
  if (end.failure !== null) return noClaim(end.failure);
  const read = readModelResult(resultPath);
  if (!read.ok) return noClaim(read.why);
  const r = read.result;
  return {
    todo: r.todo,
    // Its own account, as the scripted agent's is: it moved the work, the plan or the goal.
    progressed:
      r.finishedTodo ||
      r.allDone ||
      wroteFiles.length > 0 ||
      (r.todo === null && r.proposedTodos.length > 0),
    finishedTodo: r.finishedTodo,
    allDone: r.allDone,
    wroteFiles,
    proposedTodos: r.proposedTodos,
    questions: r.questions,
    tokens: end.tokens,
    died: false,
    obeyed: [],
    summary: r.summary,
  };
}

function filesOf(tree: WorkTree): Map<string, string> {
  const out = new Map<string, string>();
  for (const path of tree.list()) {
    const content = tree.read(path);
    if (content !== null) out.set(path, content);
  }
  return out;
}

/**
 * Makes the slice's tree what the model left: new and changed files written, vanished ones
 * removed. Returns the files it wrote (NOTES.md excepted, as the scripted agent reports them).
 */
function copyBack(
  tree: WorkTree,
  before: Map<string, string>,
  after: Map<string, string>,
): string[] {
  const wrote: string[] = [];
  for (const [path, content] of after) {
    if (before.get(path) === content) continue;
    tree.write(path, content);
    if (path !== NOTES_PATH) wrote.push(path);
  }
  for (const path of before.keys()) if (!after.has(path)) tree.remove(path);
  return wrote.sort();
}
