import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { shortstat } from "./workspace-delta.ts";

/** Identity of LoopX's commits: the slice's one commit, rebuilt by the report job. */
export const LOOPX_GIT_USER = { name: "loopx[bot]", email: "loopx[bot]@users.noreply.github.com" };

/**
 * Everything that would make git run a program or read config from the tree it looks at is
 * off: no hooks, no fsmonitor, no system or global config, no protocol but files and HTTP(S).
 * The repository's own config is ours (we created it); the work tree's `.git` is never read.
 */
const NEUTRAL_CONFIG = [
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "core.untrackedCache=false",
  "core.autocrlf=false",
  "core.safecrlf=false",
  "core.symlinks=true",
  "core.fileMode=true",
  "core.ignoreCase=false",
  "core.precomposeUnicode=false",
  "core.sparseCheckout=false",
  "core.splitIndex=false",
  "protocol.allow=never",
  "protocol.file.allow=always",
  "protocol.https.allow=always",
  "protocol.http.allow=always",
  "gc.auto=0",
  "maintenance.auto=false",
];

/** Attributes of the imported tree are data: no filter, no conversion, no working-tree encoding. */
const NEUTRAL_ATTRIBUTES = "* -text -ident -filter -working-tree-encoding !eol !diff !merge\n";

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A bare repository the action owns (in its tick directory, out of the agent's sight). The
 * work tree the agent wrote is only ever *read* into it, file by file, with git's config,
 * hooks, filters and fsmonitor all ignored; commits, checkouts and bundles happen here.
 */
export class OwnRepo {
  private constructor(readonly gitDir: string) {}

  static async create(gitDir: string): Promise<OwnRepo> {
    await mkdir(gitDir, { recursive: true });
    const repo = new OwnRepo(gitDir);
    await repo.git(["init", "--quiet", "--bare"]);
    await mkdir(join(gitDir, "info"), { recursive: true });
    await writeFile(join(gitDir, "info", "attributes"), NEUTRAL_ATTRIBUTES);
    return repo;
  }

  /**
   * Copies `ref` of a repository into this one (before the slice, while that repository is
   * still the action's own checkout) and returns its commit.
   */
  async fetch(from: string, ref: string, into: string): Promise<string> {
    await this.git([
      "fetch",
      "--quiet",
      "--no-tags",
      "--no-write-fetch-head",
      from,
      `+${ref}:${into}`,
    ]);
    return (await this.git(["rev-parse", "--verify", `${into}^{commit}`])).stdout.trim();
  }

  /**
   * The tree of `workTree` as it is now, on top of `base` (so tracked files stay tracked):
   * read with a throwaway index, `.gitignore` honoured, nothing in `workTree/.git` used.
   */
  async importTree(workTree: string, base: string): Promise<string> {
    const index = join(this.gitDir, `import-${process.pid}-${Date.now()}.index`);
    const env = { GIT_INDEX_FILE: index, GIT_WORK_TREE: workTree };
    await this.git(["read-tree", base], env);
    await this.git(["add", "--all", "--", "."], env, workTree);
    return (await this.git(["write-tree"], env)).stdout.trim();
  }

  async treeOf(commit: string): Promise<string> {
    return (await this.git(["rev-parse", "--verify", `${commit}^{tree}`])).stdout.trim();
  }

  /** Paths that differ between two trees (both sides of a rename), raw names. */
  async changedPaths(from: string, to: string): Promise<string[]> {
    const out = await this.git(["diff", "--no-renames", "--name-only", "-z", from, to]);
    return out.stdout.split("\0").filter((p) => p !== "");
  }

  /** Files, insertions and deletions between two trees: the slice commit's diffstat. */
  async diffstat(from: string, to: string): Promise<ReturnType<typeof shortstat>> {
    return shortstat((await this.git(["diff", "--no-renames", "--shortstat", from, to])).stdout);
  }

  /** One commit of `tree` on `parent`, by LoopX, at `date` (ISO 8601); `ref` moves to it. */
  async commit(options: {
    tree: string;
    parent: string;
    message: string;
    date: string;
    ref: string;
  }): Promise<string> {
    const env = {
      GIT_AUTHOR_NAME: LOOPX_GIT_USER.name,
      GIT_AUTHOR_EMAIL: LOOPX_GIT_USER.email,
      GIT_AUTHOR_DATE: options.date,
      GIT_COMMITTER_NAME: LOOPX_GIT_USER.name,
      GIT_COMMITTER_EMAIL: LOOPX_GIT_USER.email,
      GIT_COMMITTER_DATE: options.date,
    };
    const sha = (
      await this.git(
        ["commit-tree", options.tree, "-p", options.parent, "-F", "-"],
        env,
        undefined,
        options.message,
      )
    ).stdout.trim();
    await this.git(["update-ref", options.ref, sha]);
    return sha;
  }

  /** A fresh, shallow clone of `branch` (no hooks, no config of anyone else's) in `dir`. */
  async cloneTo(branch: string, dir: string): Promise<void> {
    await this.git([
      "clone",
      "--quiet",
      "--no-tags",
      "--depth=1",
      "--single-branch",
      `--branch=${branch}`,
      `file://${this.gitDir}`,
      dir,
    ]);
  }

  /** A bundle of `ref` holding only what `exclude` lacks (the report job has the rest). */
  async bundle(path: string, ref: string, exclude: string[]): Promise<void> {
    await this.git(["bundle", "create", "--quiet", path, ref, ...exclude.map((e) => `^${e}`)]);
  }

  /** git against this repository; refuses to fail silently. */
  async git(
    args: string[],
    env: Record<string, string> = {},
    cwd: string = this.gitDir,
    input?: string,
  ): Promise<GitResult> {
    const result = await neutralGit([`--git-dir=${this.gitDir}`, ...args], env, cwd, input);
    if (result.code !== 0) {
      throw new Error(
        `git ${args[0] ?? ""} failed (exit ${result.code}): ${result.stderr.trim().slice(0, 2000)}`,
      );
    }
    return result;
  }
}

/** git with every config source but the repository's own switched off, and NEUTRAL_CONFIG on top. */
export function neutralGit(
  args: string[],
  env: Record<string, string> = {},
  cwd = "/",
  input?: string,
): Promise<GitResult> {
  const config = NEUTRAL_CONFIG.flatMap((c) => ["-c", c]);
  return new Promise((resolve) => {
    const child = execFile(
      "git",
      [...config, ...args],
      {
        cwd,
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: "/nonexistent",
          LANG: "C.UTF-8",
          GIT_CONFIG_NOSYSTEM: "1",
          GIT_CONFIG_GLOBAL: "/dev/null",
          GIT_TERMINAL_PROMPT: "0",
          GIT_OPTIONAL_LOCKS: "0",
          GIT_NO_REPLACE_OBJECTS: "1",
          ...env,
        },
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}
