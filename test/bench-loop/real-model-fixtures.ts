/** What the real-model agent's tests share: reading the paths its prompt names, and one input. */
import type { AgentInput, PullView } from "../../bench/loop/agent/agent-types.ts";
import type { MemoryTree } from "../../bench/loop/agent/memory-tree.ts";
import { SKILL } from "./agent-fixtures.ts";

/** The work directory and result file the prompt tells the model about. */
export function pathsIn(prompt: string): { workDir: string; resultPath: string } {
  const workDir = /^Work directory: (.+)$/m.exec(prompt)?.[1];
  const resultPath = /^Result file: (.+)$/m.exec(prompt)?.[1];
  if (!workDir || !resultPath)
    throw new Error(`the prompt names no work directory or result file:\n${prompt}`);
  return { workDir, resultPath };
}

export function inputFor(
  tree: MemoryTree,
  prompt: string,
  extra: { comments?: { author: string; body: string }[]; pull?: PullView | null } = {},
): AgentInput {
  return {
    prompt,
    tree,
    tools: { issueComments: () => extra.comments ?? [], pull: () => extra.pull ?? null },
    skill: SKILL,
    profile: "competent",
    seed: 0,
  };
}
