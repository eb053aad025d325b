import { type GitHubPort, type IssueRef, neutralize, neutralizeInline } from "@loopx/github";
import { ContentBudgetExhausted } from "../content-budget.ts";
import type { AppDeps, Logger } from "../deps.ts";

/**
 * Writes a reply to someone without write access from the outsiders' allowance (a few per
 * person per repository, a ceiling per installation). When it is spent nothing is sent and
 * the act is not retried: a stranger's burst ends in silence, never in LoopX's own budget.
 */
export async function replyToOutsider(
  deps: AppDeps,
  installationId: number,
  to: { repoId: number; login: string },
  write: (port: GitHubPort) => Promise<unknown>,
): Promise<boolean> {
  try {
    await write(await deps.outsiderPortFor(installationId, to));
    return true;
  } catch (error) {
    if (!(error instanceof ContentBudgetExhausted)) throw error;
    deps.log.info(`no reply to ${to.login}: the outsiders' reply allowance is spent`);
    return false;
  }
}

/**
 * A reaction is an acknowledgement, not state: if GitHub refuses one, the command still
 * counts (and must not be applied twice by a retry), so a failure is logged, not thrown.
 */
export async function reactTo(
  port: GitHubPort,
  log: Logger,
  issue: IssueRef,
  commentId: number,
  content: "eyes" | "+1" | "confused",
): Promise<void> {
  try {
    await port.react({ owner: issue.owner, repo: issue.repo }, commentId, content);
  } catch (error) {
    log.warn(
      `reacting ${content} to comment ${commentId}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * One reply per comment (keyed by its id, so a redelivery finds it instead of posting
 * again): the command as typed, why it was not applied, and what would work. Everything a
 * person or the kernel wrote is neutralised; `help` is our own constant, shown as-is.
 */
export async function replyTo(
  port: GitHubPort,
  issue: IssueRef,
  commentId: number,
  quoted: string,
  message: string,
  help?: string,
): Promise<void> {
  const lines = [`> ${neutralizeInline(quoted, 200)}`, "", neutralize(message)];
  if (help) lines.push("", help);
  await port.ensureComment(issue, `reply:comment:${commentId}`, lines.join("\n"));
}
