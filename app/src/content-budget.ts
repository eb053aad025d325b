/**
 * Keeps an installation's content-creating requests under GitHub's secondary limits (80/min,
 * 500/h): every such request takes a slot from the budget in PostgreSQL first, shared by all
 * replicas. Over budget, the request is never sent; the caller defers until a slot frees.
 */
import { GitHubError } from "@loopx/github";
import type { ContentLane, OpsStore } from "@loopx/store";
import type { ProbotOctokit } from "probot";

type Octokit = InstanceType<typeof ProbotOctokit>;

/**
 * What GitHub counts as content creation among what LoopX sends: new issues, issue and PR
 * comments, pull requests and reviews (POST). Matches route templates and expanded paths.
 */
const CONTENT_CREATING =
  /^\/repos\/[^/]+\/[^/]+\/(?:issues|pulls|issues\/[^/]+\/comments|pulls\/[^/]+\/(?:comments|reviews)|pulls\/[^/]+\/comments\/[^/]+\/replies)$/;

export function isContentCreating(method: string, url: string): boolean {
  if (method.toUpperCase() !== "POST") return false;
  const path = url
    .replace(/^https?:\/\/[^/]+/, "")
    .replace(/^\/api\/v3(?=\/)/, "")
    .split("?")[0];
  return CONTENT_CREATING.test(path ?? "");
}

/** The budget is spent: nothing was sent. Carries when to try again (a 429 for classification). */
export class ContentBudgetExhausted extends GitHubError {
  override name = "ContentBudgetExhausted";
  constructor(
    readonly installationId: number,
    readonly retryAt: Date,
    now: Date,
  ) {
    super(
      `installation ${installationId} used its content-creation budget (GitHub's secondary limits); deferred to ${retryAt.toISOString()}`,
      429,
      Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000)),
    );
  }
}

/**
 * Adds the budget check in front of every content-creating request of this Octokit, taken
 * from `lane`: LoopX's own, or the small one replies to outsiders come from.
 */
export function withContentBudget(
  octokit: Octokit,
  installationId: number,
  ops: OpsStore,
  lane: ContentLane,
): Octokit {
  octokit.hook.before("request", async (options) => {
    if (!isContentCreating(options.method, options.url)) return;
    const reservation = await ops.reserveContent(installationId, lane);
    if (!reservation.ok) {
      throw new ContentBudgetExhausted(installationId, reservation.retryAt, new Date());
    }
  });
  return octokit;
}
