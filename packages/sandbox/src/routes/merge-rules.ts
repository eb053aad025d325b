import { HttpError } from "../http-error.ts";
import type { Pull, Repo } from "../state/types.ts";
import type { RouteContext } from "./context.ts";
import { rulesetApplies } from "./rulesets.ts";

/** What a required check accepts (GitHub: "successful, skipped, or neutral"). */
const PASSING = new Set(["success", "neutral", "skipped"]);

/**
 * Why the base branch's active rulesets refuse this PR's merge: each required status check
 * must pass on the PR's head commit, from the App its `integration_id` names when it names
 * one. The newest check run of a name (from that App) is the verdict; a commit status of the
 * same context counts when no App is named. Empty: nothing refuses it.
 */
export function unmetRequiredChecks(ctx: RouteContext, repo: Repo, pull: Pull): string[] {
  const { store } = ctx;
  const required = repo.rulesets
    .filter((set) => rulesetApplies(repo, set, pull.baseRef))
    .flatMap((set) => set.requiredChecks);
  const unmet: string[] = [];
  for (const check of required) {
    const runs = [...store.checkRuns.values()]
      .filter(
        (r) =>
          r.repoId === repo.id &&
          r.headSha === pull.headSha &&
          r.name === check.context &&
          (check.integrationId === null || r.appId === check.integrationId),
      )
      .sort((a, b) => b.id - a.id);
    const run = runs[0];
    if (run) {
      if (run.status !== "completed" || !PASSING.has(run.conclusion ?? "")) {
        unmet.push(
          `Required status check "${check.context}" is ${run.status === "completed" ? "failing" : "expected"}.`,
        );
      }
      continue;
    }
    const status =
      check.integrationId === null
        ? [...store.statuses.values()]
            .filter(
              (s) => s.repoId === repo.id && s.sha === pull.headSha && s.context === check.context,
            )
            .sort((a, b) => b.id - a.id)[0]
        : undefined;
    if (status?.state === "success") continue;
    unmet.push(
      `Required status check "${check.context}" is ${status && status.state !== "pending" ? "failing" : "expected"}.`,
    );
  }
  return unmet;
}

/** Refuses a merge the base's rulesets do not allow, with GitHub's 405 "Repository rule violations found". */
export function requireRulesetChecks(ctx: RouteContext, repo: Repo, pull: Pull): void {
  if (ctx.enforceRulesetsAtMerge !== true) return;
  const unmet = unmetRequiredChecks(ctx, repo, pull);
  if (unmet.length > 0) {
    throw new HttpError(405, `Repository rule violations found\n\n${unmet.join("\n")}\n`);
  }
}
