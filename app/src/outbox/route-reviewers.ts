import type { GoalState } from "@loopx/core";
import type { GitHubPort, PullSnapshot, RepoName } from "@loopx/github";

/**
 * Reviewers for a PR LoopX just opened. GitHub requests the code owners by itself when a PR
 * opens; when it requested nobody, no code owner covers the change, so LoopX asks the goal's
 * owners — never the PR's author, never someone already asked. A refused request becomes one
 * @mention comment (keyed, so a retry finds it), and success counts only when GitHub's answer lists the reviewer.
 * Returns the PR as it read it, so the caller need not read it again.
 */
export async function routeReviewers(
  port: GitHubPort,
  repo: RepoName,
  state: GoalState,
  opened: PullSnapshot,
): Promise<PullSnapshot> {
  const pull = await port.getPull(repo, opened.number);
  if (pull.requestedReviewers.length > 0) return pull;
  const people = state.goal.owners.filter(
    (l) => l !== pull.author && !l.endsWith("[bot]") && !pull.requestedReviewers.includes(l),
  );
  if (people.length === 0) return pull;
  // A login counts as requested only when GitHub's answer lists it; the rest are unreached.
  const { refused: unreached } = await port.requestReviewers(repo, pull.number, people);
  if (unreached.length === 0) return pull;
  // Mentions on purpose: the goal's owners (validated logins); nothing a person wrote here.
  await port.ensureComment(
    { ...repo, number: pull.number },
    `reviewers:${state.goal.id}:${pull.number}`,
    `${unreached.map((l) => `@${l}`).join(" ")}: LoopX opened this pull request for goal #${state.goal.issue.number} and asks for your review (GitHub did not accept a review request).`,
  );
  return pull;
}
