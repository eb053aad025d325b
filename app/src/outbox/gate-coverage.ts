import { type Gate, type GoalState, gatePreview, gatePreviewWords, sameSha } from "@loopx/core";
import { type GateCoverage, GitHubError, type GitHubPort } from "@loopx/github";
import type { Logger } from "../deps.ts";

/** How many of a PR's files a gate's comment names; the rest are counted. */
const FILES_NAMED = 20;

/**
 * What approving an open PR-bound gate covers, for its comment: the head, GitHub's counts, CI
 * on that head, and the files GitHub lists for the PR — shown only when GitHub listed them at
 * the gate's head (a later head reopens the gate with its own comment). A failed listing
 * leaves the names out, never the comment.
 */
export async function gateCoverage(
  port: Pick<GitHubPort, "listPullFiles">,
  state: GoalState,
  gate: Gate,
  now: Date,
  log: Logger,
): Promise<GateCoverage | null> {
  const preview = gatePreview(state, gate, now);
  if (preview === null) return null;
  const pr = state.pullRequests.find((p) => p.number === preview.pr);
  const current = gate.status === "open" && pr !== undefined && sameSha(pr.headSha, preview.head);
  if (!current) return { line: gatePreviewWords(preview), files: null };
  const repo = { owner: state.goal.repo.owner, repo: state.goal.repo.name };
  try {
    const listed = await port.listPullFiles(repo, preview.pr, FILES_NAMED);
    // The PR may have moved since LoopX last saw it: another head's files are not this one's.
    const ofHead = listed.files.every((f) => f.commit !== null && sameSha(f.commit, preview.head));
    return { line: gatePreviewWords(preview), files: ofHead ? listed : null };
  } catch (error) {
    if (!(error instanceof GitHubError)) throw error;
    log.info(
      `the files of #${preview.pr} were not listed (${error.message}); the gate is asked without them`,
    );
    return { line: gatePreviewWords(preview), files: null };
  }
}
