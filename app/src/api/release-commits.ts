/**
 * Commits of LoopX's own releases (the commit each release tag names), appended by
 * scripts/release.ts at every release. A caller that pins the reusable workflow to a SHA
 * (`…/loopx-tick.yml@<sha>`) is accepted only for one of these: GitHub resolves any commit of
 * the fork network under the parent repository, so a SHA pushed to a fork of loopx/loopx would
 * otherwise pass for LoopX's.
 */
export const LOOPX_RELEASE_COMMITS: readonly string[] = [];
