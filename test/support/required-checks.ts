import { Octokit } from "@octokit/rest";
import type { Sandbox } from "../../packages/sandbox/src/index.ts";

/**
 * The repository's owner requires `contexts` on the default branch with a ruleset, as a
 * repository with CI does: without a required check nothing makes LoopX's branch work green.
 */
export async function requireChecks(
  sandbox: Sandbox,
  fullName: string,
  contexts: readonly string[],
): Promise<void> {
  if (contexts.length === 0) return;
  const [owner = "", repo = ""] = fullName.split("/");
  const admin = new Octokit({ baseUrl: sandbox.url, auth: sandbox.createUserToken(owner) });
  await admin.rest.repos.createRepoRuleset({
    owner,
    repo,
    name: "required CI",
    enforcement: "active",
    conditions: { ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] } },
    rules: [
      {
        type: "required_status_checks",
        parameters: {
          required_status_checks: contexts.map((context) => ({ context })),
          strict_required_status_checks_policy: false,
        },
      },
    ],
  });
}
