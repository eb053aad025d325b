import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { parseLsTree, type TreeEntry } from "./tree.ts";

/** Who a sandbox-made commit is by (seeded files, `sandbox.push`, merges). */
export interface Person {
  name: string;
  email: string;
  /** ms since the epoch (the simulated clock). */
  at: number;
}

export interface CommitInfo {
  sha: string;
  tree: string;
  parents: string[];
  message: string;
  author: { name: string; email: string; date: string };
  committer: { name: string; email: string; date: string };
}

export type { TreeEntry };

export const ZERO_SHA = "0".repeat(40);

// A fixed identity and no user/system config: the sandbox's git must not depend on the host.
const BASE_ENV: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_TERMINAL_PROMPT: "0",
  LANG: "C",
};

/**
 * One bare repository on disk, driven through git's plumbing. Calls are synchronous: they take
 * milliseconds, and keeping them synchronous lets the REST routes and `sandbox.push` stay simple.
 */
export class GitRepo {
  private readonly statsCache = new Map<string, DiffStats>();
  private readonly filesCache = new Map<string, ChangedFile[]>();

  constructor(readonly dir: string) {}

  static init(dir: string, branch: string): GitRepo {
    mkdirSync(dir, { recursive: true });
    execFileSync("git", ["init", "--quiet", "--bare", "--initial-branch", branch, dir], {
      env: BASE_ENV,
    });
    const repo = new GitRepo(dir);
    // Pushes over HTTP go through http-backend; let it accept them (auth is the sandbox's job).
    repo.run(["config", "http.receivepack", "true"]);
    return repo;
  }

  /** Runs git in this repository; throws with git's stderr on a non-zero exit. */
  run(args: string[], input?: string | Buffer): string {
    return execFileSync("git", args, {
      env: { ...BASE_ENV, GIT_DIR: this.dir },
      input,
      maxBuffer: 64 * 1024 * 1024,
      stdio: ["pipe", "pipe", "pipe"],
    }).toString("utf8");
  }

  /** Like `run` but returns the exit status instead of throwing. */
  try(args: string[]): { status: number; stdout: string } {
    const out = spawnSync("git", args, {
      env: { ...BASE_ENV, GIT_DIR: this.dir },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { status: out.status ?? 1, stdout: out.stdout.toString("utf8") };
  }

  /** Every branch → head sha. */
  branches(): Map<string, string> {
    const out = this.run([
      "for-each-ref",
      "--format=%(refname:strip=2) %(objectname)",
      "refs/heads",
    ]);
    const map = new Map<string, string>();
    for (const line of out.split("\n")) {
      const [name, sha] = line.split(" ");
      if (name && sha) map.set(name, sha);
    }
    return map;
  }

  /** The commit a ref (branch, tag, sha) names, or null. */
  resolve(ref: string): string | null {
    const out = this.try(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
    return out.status === 0 ? out.stdout.trim() : null;
  }

  /**
   * Commits a change to a branch with fast-import: one process however many files.
   * `files` maps path → text, or null to delete. Returns the new head sha.
   */
  commit(
    branch: string,
    files: Record<string, string | null>,
    message: string,
    who: Person,
    parent: string | null,
  ): string {
    const when = `${Math.floor(who.at / 1000)} +0000`;
    const lines: Array<string | Buffer> = [
      `commit refs/heads/${branch}\n`,
      `author ${who.name} <${who.email}> ${when}\n`,
      `committer ${who.name} <${who.email}> ${when}\n`,
      `data ${Buffer.byteLength(message)}\n${message}\n`,
    ];
    if (parent) lines.push(`from ${parent}\n`);
    for (const [path, text] of Object.entries(files)) {
      if (text === null) lines.push(`D ${path}\n`);
      else lines.push(`M 100644 inline ${path}\ndata ${Buffer.byteLength(text)}\n${text}\n`);
    }
    lines.push("done\n");
    this.run(
      ["fast-import", "--quiet", "--done", "--force"],
      Buffer.concat(lines.map((l) => Buffer.from(l))),
    );
    return this.run(["rev-parse", `refs/heads/${branch}`]).trim();
  }

  /** Entries of a tree at `ref` (path "" = root); null if the path is not a directory. */
  listDir(ref: string, path: string): TreeEntry[] | null {
    const spec = path === "" ? `${ref}^{tree}` : `${ref}:${path}`;
    const out = this.try(["ls-tree", "-z", "--long", spec]);
    if (out.status !== 0) return null;
    return parseLsTree(out.stdout, path);
  }

  /** The entry at a path in `ref`, or null. */
  entry(ref: string, path: string): TreeEntry | null {
    if (path === "") return null;
    const out = this.try(["ls-tree", "-z", "--long", ref, "--", path]);
    if (out.status !== 0) return null;
    return parseLsTree(out.stdout, "").find((e) => e.path === path) ?? null;
  }

  readBlob(sha: string): Buffer {
    return execFileSync("git", ["cat-file", "blob", sha], {
      env: { ...BASE_ENV, GIT_DIR: this.dir },
      maxBuffer: 64 * 1024 * 1024,
    });
  }

  /** A file's text at `ref`, or null. */
  readFile(ref: string, path: string): string | null {
    const e = this.entry(ref, path);
    return e && e.type === "blob" ? this.readBlob(e.sha).toString("utf8") : null;
  }

  /** Every file path at `ref`. */
  paths(ref: string): string[] {
    const out = this.try(["ls-tree", "-r", "-z", "--name-only", ref]);
    return out.status === 0 ? out.stdout.split("\0").filter(Boolean) : [];
  }

  /** Paths changed on `head` since it left `base` (GitHub's three-dot PR diff). */
  changedPaths(base: string, head: string): string[] {
    const out = this.try(["diff", "--name-only", "-z", `${base}...${head}`]);
    return out.status === 0 ? out.stdout.split("\0").filter(Boolean).sort() : [];
  }

  /** commits / additions / deletions / changed files of a PR, cached per sha pair. */
  diffStats(base: string, head: string): DiffStats {
    const key = `${base}...${head}`;
    const cached = this.statsCache.get(key);
    if (cached) return cached;
    const count = this.try(["rev-list", "--count", `${base}..${head}`]);
    const num = this.try(["diff", "--numstat", `${base}...${head}`]);
    const stats: DiffStats = {
      commits: Number(count.stdout.trim()) || 0,
      additions: 0,
      deletions: 0,
      files: 0,
    };
    for (const line of num.stdout.split("\n").filter(Boolean)) {
      const [a, d] = line.split("\t");
      stats.additions += Number(a) || 0;
      stats.deletions += Number(d) || 0;
      stats.files += 1;
    }
    this.statsCache.set(key, stats);
    return stats;
  }

  /**
   * The files of a PR's three-dot diff, one entry per file pair in git's order, with rename
   * detection (`-M`, as `diffStats` counts them): status, per-file numstat (a binary file counts
   * 0/0), the blob (at head; a removed file's blob as it was) and the unified-diff hunks GitHub
   * gives as `patch`. Cached per sha pair.
   */
  changedFiles(base: string, head: string): ChangedFile[] {
    const range = `${base}...${head}`;
    const cached = this.filesCache.get(range);
    if (cached) return cached;
    const raw = this.try(["diff", "--raw", "-z", "-M", "--no-abbrev", range]);
    const num = this.try(["diff", "--numstat", "-z", "-M", range]);
    if (raw.status !== 0 || num.status !== 0) return [];
    const files: ChangedFile[] = [];
    // --raw -z: ":<mode> <mode> <sha> <sha> <status>\0<path>\0" (two paths for R and C).
    const rawParts = raw.stdout.split("\0");
    for (let i = 0; i < rawParts.length; ) {
      const meta = rawParts[i++] ?? "";
      if (!meta.startsWith(":")) continue;
      const [, , oldSha = "", newSha = "", code = ""] = meta.slice(1).split(" ");
      const twoPaths = code.startsWith("R") || code.startsWith("C");
      const from = rawParts[i++] ?? "";
      const to = twoPaths ? (rawParts[i++] ?? "") : from;
      const status = FILE_STATUS[code.charAt(0)] ?? "modified";
      files.push({
        filename: to,
        status,
        ...(twoPaths ? { previousFilename: from } : {}),
        sha: status === "removed" ? oldSha : newSha,
        additions: 0,
        deletions: 0,
        binary: false,
      });
    }
    // --numstat -z: "<added>\t<deleted>\t<path>\0", or "<added>\t<deleted>\t\0<from>\0<to>\0";
    // "-" for a binary file. Same pairs, same order as --raw.
    const numParts = num.stdout.split("\0");
    for (let i = 0, n = 0; i < numParts.length && n < files.length; n++) {
      const [a = "", d = "", path = ""] = (numParts[i++] ?? "").split("\t");
      if (path === "") i += 2;
      const file = files[n] as ChangedFile;
      file.binary = a === "-";
      file.additions = Number(a) || 0;
      file.deletions = Number(d) || 0;
    }
    const patches = this.patches(range, files.length);
    files.forEach((file, n) => {
      const patch = file.binary ? undefined : patches?.[n];
      if (patch) file.patch = patch;
    });
    this.filesCache.set(range, files);
    return files;
  }

  /**
   * Each file pair's hunks (from its first `@@` line, without the final newline), in the order
   * of `--raw`; null if git's sections do not line up with `count` pairs.
   */
  private patches(range: string, count: number): Array<string | undefined> | null {
    const out = this.try(["diff", "--patch", "-M", "--no-color", "--no-ext-diff", range]);
    if (out.status !== 0) return null;
    // A section starts at "diff --git "; a hunk's own lines start with " ", "+", "-" or "\".
    const sections: string[][] = [];
    for (const line of out.stdout.split("\n")) {
      if (line.startsWith("diff --git ")) sections.push([]);
      sections.at(-1)?.push(line);
    }
    if (sections.length !== count) return null;
    return sections.map((lines) => {
      const start = lines.findIndex((l) => l.startsWith("@@"));
      if (start < 0) return undefined;
      return lines.slice(start).join("\n").replace(/\n$/, "");
    });
  }

  /** A trial merge (`merge-tree --write-tree`, no work tree): the tree, or null on conflicts. */
  trialMerge(base: string, head: string): string | null {
    const out = this.try(["merge-tree", "--write-tree", "--no-messages", base, head]);
    if (out.status !== 0) return null;
    return out.stdout.split("\n")[0]?.trim() || null;
  }

  /** Writes a commit object for a tree and moves `branch` to it if it still points at `expect`. */
  commitTree(
    tree: string,
    parents: string[],
    message: string,
    who: Person,
    branch: string,
    expect: string,
  ): string {
    const date = `${Math.floor(who.at / 1000)} +0000`;
    const sha = execFileSync(
      "git",
      ["commit-tree", tree, ...parents.flatMap((p) => ["-p", p]), "-m", message],
      {
        env: {
          ...BASE_ENV,
          GIT_DIR: this.dir,
          GIT_AUTHOR_NAME: who.name,
          GIT_AUTHOR_EMAIL: who.email,
          GIT_AUTHOR_DATE: date,
          GIT_COMMITTER_NAME: who.name,
          GIT_COMMITTER_EMAIL: who.email,
          GIT_COMMITTER_DATE: date,
        },
      },
    )
      .toString("utf8")
      .trim();
    this.run(["update-ref", `refs/heads/${branch}`, sha, expect]);
    return sha;
  }

  /** Commits reachable from `after` but not from `before` (or, for a new branch, from no other branch), oldest first. */
  newCommits(before: string, after: string, otherHeads: string[]): CommitInfo[] {
    const range =
      before === ZERO_SHA ? [after, ...otherHeads.map((h) => `^${h}`)] : [`${before}..${after}`];
    const out = this.try(["rev-list", "--reverse", "--max-count=2048", ...range]);
    if (out.status !== 0) return [];
    return out.stdout
      .split("\n")
      .filter(Boolean)
      .map((sha) => this.commitInfo(sha));
  }

  commitInfo(sha: string): CommitInfo {
    const fmt = ["%H", "%T", "%P", "%an", "%ae", "%aI", "%cn", "%ce", "%cI", "%B"].join("%x00");
    const [
      id = sha,
      tree = "",
      parents = "",
      an = "",
      ae = "",
      ad = "",
      cn = "",
      ce = "",
      cd = "",
      ...msg
    ] = this.run(["show", "-s", `--format=${fmt}`, sha]).split("\0");
    return {
      sha: id,
      tree,
      parents: parents.split(" ").filter(Boolean),
      message: msg.join("\0").replace(/\n+$/, ""),
      author: { name: an, email: ae, date: ad },
      committer: { name: cn, email: ce, date: cd },
    };
  }

  /** Files a commit added, removed and modified relative to its first parent. */
  commitChanges(sha: string): { added: string[]; removed: string[]; modified: string[] } {
    const out = this.run([
      "diff-tree",
      "--root",
      "--no-commit-id",
      "-r",
      "-z",
      "--name-status",
      sha,
    ]);
    const parts = out.split("\0").filter(Boolean);
    const changes = { added: [] as string[], removed: [] as string[], modified: [] as string[] };
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const status = parts[i] ?? "";
      const path = parts[i + 1] ?? "";
      if (status.startsWith("A")) changes.added.push(path);
      else if (status.startsWith("D")) changes.removed.push(path);
      else changes.modified.push(path);
    }
    return changes;
  }

  isAncestor(a: string, b: string): boolean {
    return this.try(["merge-base", "--is-ancestor", a, b]).status === 0;
  }
}

export interface DiffStats {
  commits: number;
  additions: number;
  deletions: number;
  files: number;
}

/** A file of a PR's diff (GitHub's "diff entry" statuses; git's T is `changed`). */
export interface ChangedFile {
  filename: string;
  status: "added" | "removed" | "modified" | "renamed" | "copied" | "changed";
  /** The path before a rename or copy. */
  previousFilename?: string;
  /** The file's blob at head; for a removed file, the blob it had. */
  sha: string;
  additions: number;
  deletions: number;
  binary: boolean;
  /** The unified-diff hunks; absent for a binary file or a pair without hunks (a pure rename). */
  patch?: string;
}

const FILE_STATUS: Record<string, ChangedFile["status"]> = {
  A: "added",
  D: "removed",
  M: "modified",
  R: "renamed",
  C: "copied",
  T: "changed",
};

export { BASE_ENV as GIT_ENV };
