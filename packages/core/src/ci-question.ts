import type { CiQuestion } from "./pr-outcome.ts";

const HOW_TO_REQUIRE =
  "require status checks on the base branch (a ruleset or branch protection), or list them under `checks:` in .github/loopx.yml";

/** The one question LoopX asks the owners when CI cannot say a PR is green. */
export function ciQuestionText(pr: number, verdict: CiQuestion): string {
  switch (verdict.kind) {
    case "unrequired":
      return `#${pr}'s base requires no checks, so nothing can tell LoopX its work is green. To let checks count, ${HOW_TO_REQUIRE}; this question closes when they do.`;
    case "skip_ci":
      return `#${pr}'s head commit asks GitHub to skip CI ([skip ci] or a skip-checks trailer), so its required checks will not run and it is never green. Push a commit without the marker, or tell LoopX what to do.`;
    case "not_passed": {
      const names = verdict.checks.map((c) => `${c.name} (${c.status})`).join(", ");
      return `#${pr}'s required checks completed without succeeding: ${names}. Neutral and skipped are not success: make them run and pass on this head, or tell LoopX what to do.`.slice(
        0,
        2000,
      );
    }
    case "ci_did_not_run":
      return `CI did not run on #${pr}: its required checks (${verdict.missing.join(", ")}) never reported on the head. Check that the workflows run for this branch (Actions enabled, on: pull_request, path and branch filters), or tell LoopX what to do; this question closes when the checks run.`.slice(
        0,
        2000,
      );
  }
}
