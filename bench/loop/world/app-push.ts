/**
 * A push by an App's installation token, as GitHub takes it. The arms push through the
 * sandbox's store (`sandbox.push`), which — unlike its git endpoint — does not know whose
 * token pushed, so the one rule of GitHub's the arms meet is applied here: a GitHub App's
 * token without the `workflows` permission may not create or change `.github/workflows/**`
 * ("refusing to allow a GitHub App to create or update workflow … without `workflows`
 * permission"; packages/sandbox/src/git/workflow-guard.ts does it on git pushes). No arm's
 * identity holds that permission: only a person can push those files.
 */
import { UNDER_WORKFLOWS } from "@loopx/core";
import type { CellWorld } from "./cell-world.ts";

export type AppPush = { pushed: string } | { refused: string; workflows: string[] };

/**
 * `base` is the commit the slice checked out: a new branch starts there, as a pushed clone's
 * does, so work that reached main meanwhile is merged by the PR, not overwritten by the push.
 */
export function appPush(
  world: CellWorld,
  branch: string,
  files: Record<string, string | null>,
  login: string,
  message: string,
  base?: string,
): AppPush {
  const workflows = Object.keys(files).filter((p) => UNDER_WORKFLOWS.test(p));
  if (workflows.length > 0) {
    return {
      refused: `refusing to allow a GitHub App to create or update workflow \`${workflows[0]}\` without \`workflows\` permission`,
      workflows,
    };
  }
  return { pushed: world.sandbox.push(world.repo, branch, files, login, message, base) };
}
