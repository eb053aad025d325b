/**
 * Releases LoopX: `npm run release -- 1.2.3 [--dry-run] [--remote origin]`, from a clean
 * checkout of main that is what the remote has. It refuses unless CHANGELOG.md has the
 * version's section, the version is newer than every release, `npm run all` passes (--check)
 * and a fresh build leaves action/dist as committed (--build); then it tags the commit
 * `v1.2.3` and moves `v1` to it, records the commit in app/src/api/release-commits.ts (SHA-
 * pinned callers are accepted for release commits only) on main, and pushes all three at once.
 * --dry-run checks everything and asks the remote to accept the pushes, but sends nothing.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const RELEASE_COMMITS = "app/src/api/release-commits.ts";

export interface ReleaseOptions {
  version: string;
  dryRun: boolean;
  remote: string;
  check: string;
  build: string;
  log: (line: string) => void;
}

export class ReleaseRefused extends Error {
  override name = "ReleaseRefused";
}

const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8" }).trim();

function sh(command: string, what: string): void {
  const run = spawnSync("bash", ["-c", command], { stdio: "inherit" });
  if (run.status !== 0)
    throw new ReleaseRefused(`${what} failed (${command}): fix it and release again`);
}

const parse = (v: string) => v.split(".").map(Number) as [number, number, number];
const newer = (a: string, b: string) => {
  const [x, y] = [parse(a), parse(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  return false;
};

/** The release commits file with `sha` appended (kept sorted by release order). */
export function withReleaseCommit(text: string, sha: string): string {
  const m = /LOOPX_RELEASE_COMMITS: readonly string\[\] = \[([\s\S]*?)\];/.exec(text);
  if (!m) throw new ReleaseRefused(`${RELEASE_COMMITS} no longer declares LOOPX_RELEASE_COMMITS`);
  const shas = [...(m[1] ?? "").matchAll(/"([0-9a-f]{40})"/g)].map((x) => x[1]);
  const list = [...shas, sha].map((s) => `  "${s}",`).join("\n");
  return text.replace(m[0], `LOOPX_RELEASE_COMMITS: readonly string[] = [\n${list}\n];`);
}

export function release(opts: ReleaseOptions): void {
  const { version, remote, log } = opts;
  if (!/^\d+\.\d+\.\d+$/.test(version))
    throw new ReleaseRefused(`the version must be X.Y.Z, e.g. 1.0.0 (got "${version}")`);
  const tag = `v${version}`;
  const major = `v${parse(version)[0]}`;

  if (git("status", "--porcelain") !== "")
    throw new ReleaseRefused("the working tree has changes: commit or stash them first");
  if (git("rev-parse", "--abbrev-ref", "HEAD") !== "main")
    throw new ReleaseRefused("releases are cut from main: git switch main");
  git("fetch", "--quiet", remote, "main");
  const head = git("rev-parse", "HEAD");
  if (git("rev-parse", "FETCH_HEAD") !== head)
    throw new ReleaseRefused(
      `main is not ${remote}'s main: pull or push first, so the release is what everyone has`,
    );
  const released = git("ls-remote", "--tags", remote)
    .split("\n")
    .map((l) => /refs\/tags\/v(\d+\.\d+\.\d+)$/.exec(l)?.[1])
    .filter((v): v is string => v !== undefined);
  if (released.includes(version)) throw new ReleaseRefused(`${tag} is already released`);
  const latest = released.reduce((a, b) => (newer(b, a) ? b : a), "0.0.0");
  if (!newer(version, latest))
    throw new ReleaseRefused(`${version} is not newer than the latest release, ${latest}`);
  const changelog = readFileSync("CHANGELOG.md", "utf8");
  if (!new RegExp(`^## \\[${version.replaceAll(".", "\\.")}\\]`, "m").test(changelog))
    throw new ReleaseRefused(
      `CHANGELOG.md has no section "## [${version}]": write what changed first`,
    );

  log(`checking ${head.slice(0, 12)}: ${opts.check}`);
  sh(opts.check, "the checks");
  sh(opts.build, "the build");
  if (spawnSync("git", ["diff", "--quiet", "--", "action/dist"]).status !== 0)
    throw new ReleaseRefused("action/dist is stale: run `npm run build` and commit action/dist");

  const pushes = [`refs/heads/main`, `refs/tags/${tag}`, `+refs/tags/${major}`];
  if (opts.dryRun) {
    // The remote is asked whether it would take these refs (credentials, existing tags).
    git(
      "push",
      "--dry-run",
      "--atomic",
      remote,
      `${head}:refs/tags/${tag}`,
      `+${head}:refs/tags/${major}`,
    );
    log(
      `dry run: would tag ${head} as ${tag} and ${major}, record it in ${RELEASE_COMMITS} on main, and push ${pushes.join(" ")} to ${remote}`,
    );
    return;
  }
  git("tag", "-a", tag, "-m", `LoopX ${version}`, head);
  git("tag", "-f", "-a", major, "-m", `LoopX ${version} (latest ${major})`, head);
  writeFileSync(RELEASE_COMMITS, withReleaseCommit(readFileSync(RELEASE_COMMITS, "utf8"), head));
  git("add", RELEASE_COMMITS);
  git(
    "commit",
    "--quiet",
    "-m",
    `Release ${version}: ${head} joins the release commits SHA-pinned callers may name`,
  );
  git("push", "--atomic", remote, ...pushes);
  log(`released ${tag} (${head}); ${major} moved to it; main records the commit`);
}

function main(argv: string[]): number {
  const flags = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? "";
    if (a === "--dry-run") flags.set("dry-run", "true");
    else if (a.startsWith("--")) flags.set(a.slice(2), argv[++i] ?? "");
    else positional.push(a);
  }
  try {
    release({
      version: positional[0] ?? "",
      dryRun: flags.has("dry-run"),
      remote: flags.get("remote") ?? "origin",
      check: flags.get("check") ?? "npm run all",
      build: flags.get("build") ?? "npm run build",
      log: (line) => console.log(line),
    });
    return 0;
  } catch (error) {
    if (error instanceof ReleaseRefused) {
      console.error(`release refused: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

if (process.argv[1]?.endsWith("release.ts")) process.exitCode = main(process.argv.slice(2));
