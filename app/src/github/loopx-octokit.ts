import { ProbotOctokit } from "probot";

type Options = NonNullable<ConstructorParameters<typeof ProbotOctokit>[0]>;

/**
 * Probot's Octokit with in-process retries and throttling off: the inbox and outbox retry
 * durably (and honour retry-after), and the content budget paces writes across replicas, so a
 * retry or throttling queue in memory would only hold a worker while the database already has
 * the plan. It is a function default on purpose: Probot hands every instance a `throttle` of
 * its own, which replaces an object default whole, and ProbotOctokit then turns throttling back
 * on, spacing each write a second (three for comments, PRs and review requests) from the last.
 */
export const LoopxOctokit = ProbotOctokit.defaults((options: Options) => ({
  ...options,
  retry: { ...options.retry, enabled: false },
  throttle: { ...options.throttle, enabled: false },
}));
