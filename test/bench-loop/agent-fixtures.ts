/** The fixed agent's skill in its tests, and one slice of it on a tree. */
import type {
  AgentOutcome,
  Profile,
  PullView,
  ReadTools,
  Skill,
} from "../../bench/loop/agent/agent-types.ts";
import type { MemoryTree } from "../../bench/loop/agent/memory-tree.ts";
import { runAgent } from "../../bench/loop/agent/run-agent.ts";

export const PARSER = "Add the parser";
export const CLI = "Add the CLI";
export const EMPTY = "Handle empty input";

export const SKILL: Skill = {
  plan: [
    {
      title: PARSER,
      slices: 2,
      files: {
        "test/parse.test.js": "import { parse } from '../src/parse.js';\n",
        "src/parse.js": "export const parse = (s) => s.split(',');\n",
      },
      reviewFixes: [
        { "src/parse.js": "export const parse = (s) => s.split(',').map((x) => x.trim());\n" },
      ],
    },
    { title: CLI, slices: 1, files: { "src/cli.js": "console.log('cli');\n" }, reviewFixes: [] },
  ],
  discoveries: [
    {
      afterTitle: PARSER,
      todo: {
        title: EMPTY,
        slices: 1,
        files: { "src/empty.js": "export const empty = [];\n" },
        reviewFixes: [],
      },
      why: "the parser returns [''] for an empty file",
    },
  ],
};

export const PLAIN = "Work on the objective; keep your progress in NOTES.md.";
export const named = (title: string) =>
  `# LoopX brief — acme/widgets#1\n## Your todo: T2 (task, attempt 1)\n${title}\n## Instructions\nWork one bounded slice on T2.\n## The goal's other open todos\n- T1 (open): ${PARSER}\n- T3 (open): ${CLI}\n`;

export function tools(
  pull: PullView | null = null,
  comments: { author: string; body: string }[] = [],
): ReadTools {
  return { issueComments: () => comments, pull: () => pull };
}

export function slice(
  tree: MemoryTree,
  opts: {
    prompt?: string;
    profile?: Profile;
    seed?: number;
    tools?: ReadTools;
    skill?: Skill;
  } = {},
): AgentOutcome {
  return runAgent({
    prompt: opts.prompt ?? PLAIN,
    tree,
    tools: opts.tools ?? tools(),
    skill: opts.skill ?? SKILL,
    profile: opts.profile ?? "competent",
    seed: opts.seed ?? 1,
  });
}
