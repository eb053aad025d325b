import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OwnRepo } from "@loopx/harness";
import { guardChanges, type HeldPaths, parseRawDiff } from "./guard-changes.ts";
import { pushRefusal } from "./push-refusal.ts";
import { gitAuthEnv } from "./run-git.ts";

export type PushOutcome =
  | { status: "up_to_date"; headSha: string }
  /** `paths`: the files this push changed on the branch, from the diff the guard judged. */
  | { status: "pushed"; headSha: string; paths: string[] }
  /** The slice changed nothing the remote does not already have: nothing to push. */
  | { status: "empty"; headSha: string }
  | {
      status: "refused";
      headSha: string;
      reason: string;
      paths: string[];
      patch: string | null;
      /** Held for another running todo's paths: it pushes once that todo's tick is done. */
      held: boolean;
    };

export interface PushOptions {
  bundlePath: string;
  branch: string;
  remoteUrl: string;
  token: string;
  /** A gate approved `write:.github`. */
  allowWorkflowPaths: boolean;
  /** Path rules of `.github/loopx.yml` whose scopes no gate approved. */
  protectedPaths: { paths: string[]; scopes: string[] }[];
  /** The declared paths of the goal's other running todos: not to be pushed beside them. */
  heldPaths?: HeldPaths[];
  /** LoopX's message for the slice's commit. */
  message: string;
  redact: (text: string) => string;
}

/** A comment holds at most 65,536 characters; the patch leaves room for the words around it. */
const PATCH_MAX = 60_000;

/**
 * Pushes ONE commit for the slice: the bundle's final tree (the agent job is not trusted to
 * have built its history) committed by LoopX onto the remote branch's head, or onto the
 * bundle's merge-base with the default branch when the branch is new. That commit's diff
 * (`-z --no-renames`, so no name is quoted and a rename is its two halves) is what is guarded:
 * anything under `.github/` without a `write:.github` gate, any path rule no gate approved,
 * and workflow files even with the gate (push-refusal.ts). A refused change with workflow
 * files comes back as a patch for a person: only a person can push it. The work happens in
 * a throwaway repository; the token is per command.
 */
export async function pushBundle(o: PushOptions): Promise<PushOutcome> {
  const ref = `refs/heads/${o.branch}`;
  const auth = gitAuthEnv(o.token);
  const dir = await mkdtemp(join(tmpdir(), "loopx-push-"));
  try {
    const repo = await OwnRepo.create(join(dir, "repo.git"));
    const heads = await repo.git(["bundle", "list-heads", o.bundlePath, ref]).catch(() => null);
    if (!heads?.stdout.includes(ref)) {
      throw new Error(
        `The agent's bundle has no ${ref}: the agent job did not produce the todo branch`,
      );
    }
    const listing = await remote(
      repo,
      ["ls-remote", "--symref", o.remoteUrl, "HEAD", ref],
      auth,
      o.redact,
    );
    const defaultRef = /^ref: (refs\/heads\/\S+)\s+HEAD$/m.exec(listing)?.[1];
    if (!defaultRef) throw new Error(`Could not read the default branch of ${o.remoteUrl}`);
    const remoteHead = new RegExp(`^([0-9a-f]{40})\\s+${escapeRegExp(ref)}$`, "m").exec(
      listing,
    )?.[1];
    const wanted = [`+${defaultRef}:refs/remotes/origin/default`];
    if (remoteHead) wanted.push(`+${ref}:refs/remotes/origin/branch`);
    await remote(repo, ["fetch", "--quiet", "--no-tags", o.remoteUrl, ...wanted], auth, o.redact);
    // The bundle holds only what the remote lacked when the agent job ran.
    try {
      await repo.git(["fetch", "--quiet", "--no-tags", o.bundlePath, `+${ref}:refs/loopx/bundle`]);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new Error(o.redact(`The agent's bundle does not apply to ${o.remoteUrl}: ${why}`));
    }
    const tree = (
      await repo.git(["rev-parse", "--verify", "refs/loopx/bundle^{tree}"])
    ).stdout.trim();
    const parent =
      remoteHead ??
      (
        await repo
          .git(["merge-base", "refs/loopx/bundle", "refs/remotes/origin/default"])
          .catch(() => null)
      )?.stdout.trim();
    if (!parent) throw new Error(`The agent's branch shares no history with ${defaultRef}`);
    if ((await repo.treeOf(parent)) === tree) {
      return remoteHead
        ? { status: "up_to_date", headSha: parent }
        : { status: "empty", headSha: parent };
    }
    const date = (await repo.git(["log", "-1", "--format=%cI", "refs/loopx/bundle"])).stdout.trim();
    const headSha = await repo.commit({
      tree,
      parent,
      message: o.message,
      date: validDate(date),
      ref: "refs/loopx/slice",
    });
    const diff = await repo.git([
      "diff-tree",
      "-r",
      "-z",
      "--no-renames",
      "--raw",
      "--no-commit-id",
      parent,
      headSha,
    ]);
    const changes = parseRawDiff(diff.stdout);
    const refusal = pushRefusal(guardChanges(changes, o));
    if (refusal) {
      const patch = refusal.workflow ? await patchOf(repo, headSha) : null;
      return {
        status: "refused",
        headSha,
        reason: refusal.reason,
        paths: refusal.paths,
        patch,
        held: refusal.held,
      };
    }
    // No force: if someone moved the branch meanwhile, the push fails instead of losing their work.
    await remote(repo, ["push", "--quiet", o.remoteUrl, `${headSha}:${ref}`], auth, o.redact);
    return { status: "pushed", headSha, paths: changes.map((c) => c.path) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function patchOf(repo: OwnRepo, sha: string): Promise<string> {
  const out = (await repo.git(["format-patch", "--stdout", "--binary", "-1", sha])).stdout;
  return out.length <= PATCH_MAX
    ? out
    : `${out.slice(0, PATCH_MAX)}\n… (truncated: the patch is ${out.length} characters)\n`;
}

/** A remote command: the credential through the environment, errors redacted. */
async function remote(
  repo: OwnRepo,
  args: string[],
  auth: Record<string, string>,
  redact: (t: string) => string,
) {
  try {
    return (await repo.git(args, auth)).stdout;
  } catch (error) {
    throw new Error(redact(error instanceof Error ? error.message : String(error)));
  }
}

/** The bundle's own commit date when it is one, so the rebuilt commit matches the agent job's. */
function validDate(text: string): string {
  const at = Date.parse(text);
  return Number.isFinite(at) ? new Date(at).toISOString() : new Date().toISOString();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
