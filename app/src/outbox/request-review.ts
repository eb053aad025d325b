import type { Effect, GoalState } from "@loopx/core";
import type { GitHubPort } from "@loopx/github";

type ReviewRequest = Extract<Effect, { kind: "review_request" }>;

/**
 * Asks the deciders of a PR-bound gate for a review on that PR. GitHub answers with the PR,
 * whose requested reviewers show whether each request landed. GitHub refuses some logins (the
 * PR's author, people without access), or accepts and does not list them: those get ONE
 * comment on the PR that names them instead, keyed so a retry finds it. A gate already
 * decided, or moved to another PR, needs no request.
 */
export async function requestReview(
  port: GitHubPort,
  state: GoalState,
  effect: ReviewRequest,
): Promise<void> {
  const gate = state.gates.find((g) => g.key === effect.gate);
  if (gate?.status !== "open" || gate.pr?.number !== effect.pr) return;
  const repo = { owner: state.goal.repo.owner, repo: state.goal.repo.name };
  const people = effect.reviewers.filter((l) => !l.endsWith("[bot]"));
  if (people.length === 0) return;
  const { refused: unreached } = await port.requestReviewers(repo, effect.pr, people);
  if (unreached.length === 0) return;
  const goalRef = `#${state.goal.issue.number}`;
  // Mentions on purpose: these are the gate's deciders (validated logins), and GitHub would
  // not let us request their review. Nothing a person wrote is rendered here.
  const names = unreached.map((l) => `@${l}`).join(" ");
  await port.ensureComment(
    { ...repo, number: effect.pr },
    `${effect.key}:mention`,
    [
      `${names}: LoopX gate ${gate.key} of goal ${goalRef} waits for your decision on this pull request (head \`${gate.pr.headSha.slice(0, 12)}\`).`,
      "",
      `Approve it with an approving review of the current head, or comment \`/loopx approve ${gate.key}\` on ${goalRef}. GitHub did not accept a review request for ${unreached.map((l) => `\`${l}\``).join(", ")}.`,
    ].join("\n"),
  );
}
