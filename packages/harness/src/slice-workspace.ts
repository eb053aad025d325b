import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { openJail } from "./jail/open-jail.ts";
import { JailError } from "./jail/privilege.ts";
import type { OwnRepo } from "./own-repo.ts";
import { runValidation } from "./run-validation.ts";
import type { SliceWorkspace } from "./slice-types.ts";
import { snapshotWorkspace, type WorkspaceSnapshot, workspaceDelta } from "./workspace-delta.ts";

/**
 * The work tree read in place with git and validated in place, on the host: for adapter
 * tests and trusted commands only, since it runs git and the command in a tree an agent wrote.
 */
export function hostWorkspace(workdir: string): SliceWorkspace {
  let before: WorkspaceSnapshot | null = null;
  return {
    async before() {
      before = await snapshotWorkspace(workdir);
    },
    after: () =>
      before
        ? workspaceDelta(workdir, before)
        : Promise.resolve({ known: false, changed: false, commits: [], changedFiles: [] }),
    validate: (o) => runValidation({ ...o, workdir }),
  };
}

export interface OwnWorkspaceOptions {
  repo: OwnRepo;
  /** The tree the agent wrote. */
  workdir: string;
  /** The commit the slice started from (already in `repo`). */
  base: string;
  /** The todo branch; `refs/heads/<branch>` in `repo` ends at the slice's commit. */
  branch: string;
  /** LoopX's message for the slice's one commit. */
  message: string;
  /** Where clean checkouts for validation go: hidden from the agent, e.g. the tick directory. */
  scratchRoot: string;
  /** What validation jails must not see (as for the agent's). */
  hidden: string[];
}

/**
 * The action's view of a jailed slice: the tree is imported into a repository the action
 * owns (nothing of the agent's `.git` runs) and committed there once, with LoopX's message;
 * validation runs on a clean checkout of that commit in a fresh jail with a new uid, after
 * the agent's jail is gone, and its verdict is the exit code of that jail's init.
 */
export function ownWorkspace(o: OwnWorkspaceOptions): SliceWorkspace {
  const ref = `refs/heads/${o.branch}`;
  return {
    async before() {
      await o.repo.git(["update-ref", ref, o.base]);
    },
    async after() {
      const tree = await o.repo.importTree(o.workdir, o.base);
      const baseTree = await o.repo.treeOf(o.base);
      if (tree === baseTree) return { known: true, changed: false, commits: [], changedFiles: [] };
      const sha = await o.repo.commit({
        tree,
        parent: o.base,
        message: o.message,
        date: new Date().toISOString(),
        ref,
      });
      const changedFiles = await o.repo.changedPaths(baseTree, tree);
      const diffstat = await o.repo.diffstat(baseTree, tree);
      const subject = o.message.split("\n")[0] ?? o.message;
      return {
        known: true,
        changed: true,
        commits: [{ sha, message: subject, diffstat }],
        changedFiles: changedFiles.slice(0, 200),
      };
    },
    async validate(v) {
      await mkdir(o.scratchRoot, { recursive: true });
      const dir = await mkdtemp(join(o.scratchRoot, "validate-"));
      try {
        const work = join(dir, "work");
        const home = join(dir, "home");
        await o.repo.cloneTo(o.branch, work);
        await mkdir(home);
        const jail = await openJail({ writable: [work, home], hidden: o.hidden, home });
        const run = await runValidation({ ...v, workdir: work, spawner: jail.spawner });
        await jail.close();
        return run;
      } catch (error) {
        if (error instanceof JailError) throw error;
        throw new JailError(
          "unavailable",
          `validation could not run: ${error instanceof Error ? error.message : String(error)}`,
        );
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
