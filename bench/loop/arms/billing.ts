/**
 * What a run costs, the same for every arm of `bench:loop`, so arms differ in how many jobs
 * and slices they start, never in how a minute or a token is priced.
 *
 * GitHub bills each job of a workflow run on its own, its minutes "rounded up to the nearest
 * whole minute", so a 20-second job costs a minute and an 11.5-minute one costs 12.
 * https://docs.github.com/en/billing/managing-billing-for-your-products/managing-billing-for-github-actions/about-billing-for-github-actions
 */

/** Runner minutes one harness slice occupies: the same as bench/governance.ts's MODEL. */
export const SLICE_MINUTES = 10;
/**
 * Runner minutes a job spends before its agent starts: a full-history checkout and the few
 * `gh api` calls that gather the issue and the pull request. A model, not a measurement.
 */
export const SETUP_MINUTES = 1.5;
/** A job that checks out, finds the stop marker and ends: well under a minute of runner time. */
export const SKIP_MINUTES = 0.5;

/** GitHub-hosted Linux x64 2-core runner, USD per minute (the same as governance.ts). */
export const RUNNER_USD_PER_MINUTE = 0.008;
/**
 * Model spend per token, a model: $3 per million input-equivalent tokens (a mid-size model's
 * list price for input; output is dearer, cache reads cheaper, and the bench's token counts do
 * not split them). Stated once so every arm's dollars move together if it changes.
 */
export const USD_PER_TOKEN = 3 / 1_000_000;

/** Minutes GitHub bills for a job that ran `realMinutes`: rounded up, at least one. */
export function billedMinutes(realMinutes: number): number {
  if (!Number.isFinite(realMinutes) || realMinutes < 0) {
    throw new RangeError(
      `a job runs a finite, non-negative number of minutes (got ${realMinutes})`,
    );
  }
  return Math.max(1, Math.ceil(realMinutes));
}

/** The dollars of billed runner minutes and model tokens. */
export function usdOf(spend: { runnerMinutes: number; tokens: number }): number {
  return spend.runnerMinutes * RUNNER_USD_PER_MINUTE + spend.tokens * USD_PER_TOKEN;
}
