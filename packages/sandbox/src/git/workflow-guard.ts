import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Principal } from "../auth.ts";

/**
 * GitHub refuses a push that creates or changes a file under `.github/workflows/` when it comes
 * from a GitHub App's token (an installation token, or a job's GITHUB_TOKEN) without the
 * `workflows` permission, with "refusing to allow a GitHub App to create or update workflow
 * `<path>` without `workflows` permission". The sandbox does it in a pre-receive hook, so the
 * refs never move and git prints the message as GitHub's remote does.
 */
export function needsWorkflowsGuard(principal: Principal): boolean {
  if (principal.kind !== "installation" && principal.kind !== "job") return false;
  return principal.token.permissions.workflows !== "write";
}

// Every pushed ref's commits not yet in the repository (all of them for a new branch), their
// changed paths, the first workflow file among them refused.
const HOOK = `#!/bin/bash
zero=0000000000000000000000000000000000000000
while read -r old new ref; do
  [ "$new" = "$zero" ] && continue
  if [ "$old" = "$zero" ]; then
    paths=$(git log --format= --name-only "$new" --not --all)
  else
    paths=$(git diff --name-only "$old" "$new")
  fi
  path=$(printf '%s\\n' "$paths" | grep -m1 '^\\.github/workflows/')
  if [ -n "$path" ]; then
    echo "refusing to allow a GitHub App to create or update workflow \\\`$path\\\` without \\\`workflows\\\` permission" >&2
    exit 1
  fi
done
exit 0
`;

/** A hooks directory holding the guard, written once under the sandbox's root. */
export function workflowGuardHooks(root: string): string {
  const dir = join(root, "hooks", "workflow-guard");
  mkdirSync(dir, { recursive: true });
  const hook = join(dir, "pre-receive");
  writeFileSync(hook, HOOK);
  chmodSync(hook, 0o755);
  return dir;
}
