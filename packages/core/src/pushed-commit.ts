import type { Evidence } from "./schemas/evidence.ts";

const PREFIX = "pushed ";

/**
 * The App records a branch push as commit evidence with this summary. Other commit evidence
 * (a slice's own report, a merge) carries a sha too, so the summary is what tells a head
 * the App saw pushed from one a reporter named.
 */
export const pushedCommitSummary = (branch: string, sha: string): string =>
  `${PREFIX}${branch} at ${sha.slice(0, 7)}`;

/** Whether `e` is a push the App recorded (see pushedCommitSummary). */
export const isPushedCommit = (e: Evidence): boolean =>
  e.kind === "commit" && e.sha !== null && e.summary.startsWith(PREFIX);

/**
 * A summary as an agent wrote it (its evidence, its commit messages), kept readable but never
 * in the App's own words: a slice that names its commit "pushed …" must not pass for a push.
 */
export const reportedSummary = (summary: string): string =>
  summary.startsWith(PREFIX) ? `reported: ${summary}`.slice(0, 500) : summary;
