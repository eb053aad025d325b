import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { SliceInput } from "../src/index.ts";

const ROOT = resolve(import.meta.dirname, "../../..");

/**
 * The real CLIs, installed as root devDependencies. A missing one fails the test loudly:
 * CI installs them from npm, so absence is a broken install, not a reason to skip.
 */
export function cliBin(name: "claude" | "codex"): string {
  const bin = join(ROOT, "node_modules", ".bin", name);
  if (!existsSync(bin)) {
    throw new Error(
      `${bin} is missing: run \`npm ci\` at the repository root (the ${name} CLI is a devDependency)`,
    );
  }
  return bin;
}

const created: string[] = [];

/** A temporary directory removed by cleanupTempDirs(). */
export function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

export function cleanupTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh git repository with one commit, as the agent job's checkout would be. */
export function gitWorkdir(): string {
  const dir = tempDir("loopx-work-");
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: dir,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@example.com",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@example.com",
      },
    });
  git("init", "-q", "-b", "loopx/1-T1");
  writeFileSync(join(dir, "README.md"), "# demo\n");
  git("add", ".");
  git("commit", "-q", "-m", "initial");
  return dir;
}

export function sliceInput(workdir: string, over: Partial<SliceInput> = {}): SliceInput {
  return {
    workdir,
    brief: {
      text: "# LoopX brief\n## Your todo: T1\nCreate hello.txt.",
      json: { todo: { key: "T1", title: "Create hello.txt" } },
    },
    todo: "T1",
    limits: { wallMs: 20_000, idleMs: 15_000, maxTurns: 10, maxUsd: 5 },
    validationCommand: "test -f hello.txt",
    env: {},
    secrets: [],
    allowedTools: [],
    killGraceMs: 500,
    ...over,
  };
}

export const GOOD_CLAIM = {
  outcome: "progress",
  handoff: { done: "wrote hello.txt", next: "add tests", questions: [] },
  evidence: [{ kind: "note", summary: "created hello.txt" }],
};

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until a process is gone (a killed process may linger a moment as it is reaped). */
export async function waitGone(pid: number, ms = 3000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !isAlive(pid);
}

/** The result path the slice prompt names (the scripted model reads it like a real one would). */
export function resultPathIn(prompt: string): string {
  const m = /write a JSON file at (\S+) \(also given as \$LOOPX_RESULT\)/.exec(prompt);
  if (!m?.[1]) throw new Error(`the prompt names no result path:\n${prompt.slice(0, 2000)}`);
  return m[1];
}
