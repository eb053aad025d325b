import { z } from "zod";
import { Repository } from "../webhooks/envelope.ts";

/**
 * What the PR monitor reads from pull request, check and status deliveries: only which PR
 * (or which commit) changed. The facts themselves are read fresh from GitHub. Loose like
 * payloads.ts: unknown fields are ignored.
 */
const Installation = z.object({ id: z.number() });
const PrRef = z.object({ number: z.number().int().positive() });
/**
 * The App that wrote a check: LoopX's own runs are not CI. GitHub's schema for an App makes
 * `slug` optional (its own check_suite example has none), so a check without one is CI.
 */
const CheckApp = z.object({ slug: z.string().optional() }).nullable().default(null);

export const PullRequestChanged = z.object({
  action: z.string(),
  installation: Installation,
  repository: Repository,
  pull_request: PrRef,
});
export type PullRequestChanged = z.infer<typeof PullRequestChanged>;

/** check_run and check_suite carry the same-repository PRs of their head. */
export const CheckRunChanged = z.object({
  action: z.string(),
  installation: Installation,
  repository: Repository,
  check_run: z.object({
    head_sha: z.string(),
    // Null until the run completes; any string GitHub adds later is not a pass.
    conclusion: z.string().nullable().optional(),
    pull_requests: z.array(PrRef).default([]),
    app: CheckApp,
  }),
});
export type CheckRunChanged = z.infer<typeof CheckRunChanged>;

export const CheckSuiteChanged = z.object({
  action: z.string(),
  installation: Installation,
  repository: Repository,
  check_suite: z.object({
    head_sha: z.string(),
    pull_requests: z.array(PrRef).default([]),
    app: CheckApp,
  }),
});
export type CheckSuiteChanged = z.infer<typeof CheckSuiteChanged>;

/** A commit status names only its commit: the PRs are those whose head it is. */
export const StatusChanged = z.object({
  installation: Installation,
  repository: Repository,
  sha: z.string(),
});
export type StatusChanged = z.infer<typeof StatusChanged>;
