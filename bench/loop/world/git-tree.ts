/**
 * Reads a commit's files out of a sandbox repository's bare git directory, asynchronously:
 * the sandbox's HTTP server lives in this process, so a synchronous git call here would stall
 * every request an arm has in flight.
 */
import { execFile, spawn } from "node:child_process";
import type { Tree } from "../tasks/read-tree.ts";

// No user or system config, as the sandbox's own git: a host's config must not change a read.
const gitEnv = (gitDir: string): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  GIT_DIR: gitDir,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  LANG: "C",
});

function git(gitDir: string, args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      args,
      { env: gitEnv(gitDir), maxBuffer: 64 * 1024 * 1024, encoding: "utf8" },
      (error, stdout) => {
        if (error && typeof error.code !== "number") {
          reject(new Error(`git ${args[0]} could not run (is git installed?): ${error.message}`));
        } else resolve({ code: error ? Number(error.code) : 0, stdout });
      },
    );
  });
}

/** The commit `rev` names (a sha, `refs/heads/x`), or null when it names none. */
export async function resolveCommit(gitDir: string, rev: string): Promise<string | null> {
  const out = await git(gitDir, ["rev-parse", "--verify", "--quiet", `${rev}^{commit}`]);
  return out.code === 0 ? out.stdout.trim() : null;
}

/** The commits of `ref`'s first-parent line, oldest first, with their committer times (ms). */
export async function firstParentLine(
  gitDir: string,
  ref: string,
): Promise<{ sha: string; at: number }[]> {
  const out = await git(gitDir, ["log", "--first-parent", "--reverse", "--format=%H %ct", ref]);
  if (out.code !== 0) throw new Error(`git log ${ref} failed in ${gitDir}`);
  return out.stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [sha = "", seconds = "0"] = line.split(" ");
      return { sha, at: Number(seconds) * 1000 };
    });
}

/** Every file of commit `rev`, as UTF-8 text keyed by its path. */
export async function readTreeAt(gitDir: string, rev: string): Promise<Tree> {
  const listing = await git(gitDir, ["ls-tree", "-r", "-z", "--full-tree", rev]);
  if (listing.code !== 0) throw new Error(`git ls-tree ${rev} failed in ${gitDir}`);
  const blobs: { path: string; sha: string }[] = [];
  for (const entry of listing.stdout.split("\0")) {
    // "<mode> <type> <sha>\t<path>"; submodules (commit entries) hold no files to read.
    const m = /^\d+ blob ([0-9a-f]+)\t(.+)$/s.exec(entry);
    if (m?.[1] && m[2]) blobs.push({ sha: m[1], path: m[2] });
  }
  const contents = await catBlobs(
    gitDir,
    blobs.map((b) => b.sha),
  );
  const tree: Tree = new Map();
  blobs
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .forEach((b, i) => {
      tree.set(b.path, contents[i] ?? "");
    });
  return tree;
}

/** One `git cat-file --batch` for all blobs: one process however many files. */
function catBlobs(gitDir: string, shas: string[]): Promise<string[]> {
  if (shas.length === 0) return Promise.resolve([]);
  return new Promise((resolve, reject) => {
    const child = spawn("git", ["cat-file", "--batch"], { env: gitEnv(gitDir) });
    const chunks: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => chunks.push(d));
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`git cat-file failed in ${gitDir}: ${stderr}`));
      const out = Buffer.concat(chunks);
      const texts: string[] = [];
      let at = 0;
      for (const sha of shas) {
        const eol = out.indexOf(0x0a, at);
        const header = out.subarray(at, eol).toString("utf8");
        const m = /^[0-9a-f]+ blob (\d+)$/.exec(header);
        if (!m?.[1]) return reject(new Error(`git cat-file: no blob ${sha} (${header})`));
        const size = Number(m[1]);
        texts.push(out.subarray(eol + 1, eol + 1 + size).toString("utf8"));
        at = eol + 1 + size + 1; // the content is followed by a newline
      }
      resolve(texts);
    });
    child.stdin.end(`${shas.join("\n")}\n`);
  });
}
