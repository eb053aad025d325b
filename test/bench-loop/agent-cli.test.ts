/**
 * The bench's fixed agent (bench/loop/agent) as LoopX meets it: its CLI's result file as the
 * harness reads it, and the lint rule that keeps it from importing the App or the kernel.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentClaim, readAgentClaim } from "@loopx/harness";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Skill } from "../../bench/loop/agent/agent-types.ts";
import { dirTree } from "../../bench/loop/agent/dir-tree.ts";
import { memoryTree } from "../../bench/loop/agent/memory-tree.ts";
import { blank } from "../../bench/loop/agent/run-agent.ts";
import { toLoopxResult } from "../../bench/loop/agent/to-claim.ts";
import { CLI, EMPTY, named, PARSER, SKILL, slice } from "./agent-fixtures.ts";

const ROOT = join(import.meta.dirname, "../..");

describe("the agent's CLI and its lint rule", () => {
  it("maps plans, finished todos and discoveries onto LoopX's result file", () => {
    const plan = toLoopxResult(slice(memoryTree(), { prompt: "Write a plan." }), SKILL);
    expect(AgentClaim.parse(plan)).toMatchObject({
      outcome: "completed",
      continuation: { kind: "goal_active" },
      proposedTodos: [
        { title: PARSER, paths: ["src/parse.js", "test/parse.test.js", "NOTES.md"], after: null },
        { title: CLI, paths: ["src/cli.js", "NOTES.md"], after: PARSER },
      ],
    });
    const tree = memoryTree();
    slice(tree);
    const finished = toLoopxResult(slice(tree), SKILL);
    expect(AgentClaim.parse(finished)).toMatchObject({
      outcome: "completed",
      continuation: { kind: "successor", title: EMPTY },
    });
    const confused = { ...slice(memoryTree()), progressed: false, wroteFiles: [] };
    expect(AgentClaim.parse(toLoopxResult(confused, SKILL)).outcome).toBe("no_change");
    // A flaky slice confused before it picked a todo proposes nothing: no plan, no claim.
    const lost = { ...blank(), summary: "got confused; changed nothing" };
    expect(AgentClaim.parse(toLoopxResult(lost, SKILL))).toMatchObject({
      outcome: "no_change",
      continuation: null,
    });
  });

  it("a planned todo builds on the one before: each appends to NOTES.md on its branch", () => {
    const todo = (title: string, path: string) => ({
      title,
      slices: 1,
      files: { [path]: `// ${title}\n` },
      reviewFixes: [],
    });
    const skill: Skill = {
      plan: [
        todo("Move x", "src/x.js"),
        todo("Run CI on two versions", ".github/workflows/ci.yml"),
        todo("Move y", "src/y.js"),
      ],
      discoveries: [
        { afterTitle: "Move x", todo: todo("Fix x callers", "lib/z.js"), why: "callers break" },
      ],
    };
    const plan = toLoopxResult(slice(memoryTree(), { prompt: "Write a plan.", skill }), skill);
    // The workflow shares no folder with src/, but its branch's NOTES.md would conflict.
    expect(AgentClaim.parse(plan).proposedTodos.map((t) => [t.title, t.after])).toEqual([
      ["Move x", null],
      ["Run CI on two versions", "Move x"],
      ["Move y", "Run CI on two versions"],
    ]);
    const finished = toLoopxResult(
      {
        ...slice(memoryTree(), { skill }),
        todo: "Move x",
        finishedTodo: true,
        proposedTodos: ["Move y", "Fix x callers"],
      },
      skill,
    );
    // What finishing a todo reveals builds on that todo.
    expect(AgentClaim.parse(finished).proposedTodos.map((t) => [t.title, t.after])).toEqual([
      ["Fix x callers", "Move x"],
    ]);
  });

  it("keeps a directory-backed tree inside its checkout", () => {
    const dir = mkdtempSync(join(tmpdir(), "bench-agent-tree-"));
    try {
      const tree = dirTree(dir);
      tree.write("src/a.js", "a");
      expect(tree.list()).toEqual(["src/a.js"]);
      expect(() => tree.write("../outside.js", "x")).toThrow(/'\.\.'/);
      expect(() => tree.write(".git/hooks/pre-commit", "x")).toThrow(/\.git/);
      expect(() => tree.read("/etc/passwd")).toThrow(/relative/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses tools from two sources, or from GitHub without the brief that names the branch", () => {
    const dir = mkdtempSync(join(tmpdir(), "bench-agent-"));
    try {
      writeFileSync(join(dir, "brief.md"), named(PARSER));
      writeFileSync(join(dir, "skill.json"), JSON.stringify(SKILL));
      const cli = (env: Record<string, string>) =>
        spawnSync(
          join(ROOT, "node_modules/.bin/tsx"),
          [join(ROOT, "bench/loop/agent/agent-cli.ts")],
          {
            cwd: dir,
            encoding: "utf8",
            env: {
              PATH: process.env.PATH ?? "",
              LOOPX_BRIEF_MD: join(dir, "brief.md"),
              AGENT_SKILL: join(dir, "skill.json"),
              AGENT_GITHUB_API: "http://127.0.0.1:9",
              ...env,
            },
          },
        );
      const both = cli({ AGENT_TOOLS: '{"issueComments": []}' });
      expect(both.status).toBe(2);
      expect(both.stderr).toContain("set $AGENT_TOOLS or $AGENT_GITHUB_API, not both");
      const unnamed = cli({});
      expect(unnamed.status).toBe(2);
      expect(unnamed.stderr).toContain("$AGENT_GITHUB_API needs $LOOPX_BRIEF");
      writeFileSync(join(dir, "brief.json"), JSON.stringify({ repo: "acme", issue: 1 }));
      const malformed = cli({ LOOPX_BRIEF: join(dir, "brief.json") });
      expect(malformed.status).toBe(2);
      expect(malformed.stderr).toMatch(/\$LOOPX_BRIEF is malformed[\s\S]*repo[\s\S]*branch/);
      expect(readdirSync(dir).sort()).toEqual(["brief.json", "brief.md", "skill.json"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("runs in a checkout and writes a result LoopX's shell harness accepts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bench-agent-"));
    try {
      const work = join(dir, "work");
      mkdirSync(work);
      writeFileSync(join(dir, "brief.md"), named(PARSER));
      writeFileSync(join(dir, "skill.json"), JSON.stringify(SKILL));
      const run = spawnSync(
        join(ROOT, "node_modules/.bin/tsx"),
        [join(ROOT, "bench/loop/agent/agent-cli.ts")],
        {
          cwd: work,
          encoding: "utf8",
          env: {
            ...process.env,
            LOOPX_BRIEF_MD: join(dir, "brief.md"),
            AGENT_SKILL: join(dir, "skill.json"),
            AGENT_PROFILE: "competent",
            AGENT_SEED: "3",
            LOOPX_RESULT: join(dir, "result.json"),
          },
        },
      );
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ todo: PARSER, wroteFiles: ["src/parse.js"] });
      expect(readFileSync(join(work, "src/parse.js"), "utf8")).toBe(
        SKILL.plan[0]!.files["src/parse.js"],
      );
      const claim = await readAgentClaim(join(dir, "result.json"));
      expect(claim.ok ? claim.claim : claim.error).toMatchObject({
        outcome: "progress",
        handoff: { next: `continue ${PARSER} from NOTES.md` },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("forbids the agent importing the App or the kernel", () => {
    // Linted in a copy of the repository's biome.json: biome 2.6's stdin mode reports no
    // diagnostics and exits 1 for any input, and a probe file in the shared tree would be
    // seen by anyone else linting it.
    const dir = mkdtempSync(join(tmpdir(), "bench-agent-lint-"));
    try {
      const config = z
        .record(z.string(), z.unknown())
        .parse(JSON.parse(readFileSync(join(ROOT, "biome.json"), "utf8")));
      writeFileSync(
        join(dir, "biome.json"),
        JSON.stringify({ ...config, $schema: undefined, vcs: { enabled: false } }),
      );
      mkdirSync(join(dir, "bench/loop/agent"), { recursive: true });
      const lint = (source: string) => {
        writeFileSync(join(dir, "bench/loop/agent/probe.ts"), source);
        return spawnSync(
          join(ROOT, "node_modules/.bin/biome"),
          ["lint", "bench/loop/agent/probe.ts"],
          {
            cwd: dir,
            encoding: "utf8",
          },
        );
      };
      const kernel = lint('import { decide } from "@loopx/core";\nexport const x = decide;\n');
      expect(kernel.status).not.toBe(0);
      expect(`${kernel.stdout}${kernel.stderr}`).toContain("noRestrictedImports");
      expect(`${kernel.stdout}${kernel.stderr}`).toContain("never the App or the kernel");
      const fs = lint('import { readFileSync } from "node:fs";\nexport const x = readFileSync;\n');
      expect(`${fs.stdout}${fs.stderr}`).not.toContain("noRestrictedImports");
      expect(fs.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
