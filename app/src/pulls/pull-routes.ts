import type { Delivery } from "@loopx/store";
import type { AppDeps } from "../deps.ts";
import type { Repository } from "../webhooks/envelope.ts";
import type { Routes } from "../webhooks/on.ts";
import { on } from "../webhooks/on.ts";
import { ignored, type Outcome } from "../webhooks/outcome.ts";
import { monitorPull, type PullTarget } from "./monitor-pull.ts";
import { onPullRequestPush } from "./on-pull-request-push.ts";
import { onPullRequestReview } from "./on-pull-request-review.ts";
import {
  CheckRunChanged,
  CheckSuiteChanged,
  PullRequestChanged,
  StatusChanged,
} from "./pull-payloads.ts";
import { PullRequestEvent, PullRequestReviewEvent } from "./review-payloads.ts";

const target = (installationId: number, repository: Repository, number: number): PullTarget => ({
  installationId,
  repoId: repository.id,
  repo: { owner: repository.owner.login, repo: repository.name },
  number,
});

/** Several PRs for one delivery: the delivery is marked with the last one that changed. */
async function monitorAll(
  deps: AppDeps,
  delivery: Delivery,
  targets: PullTarget[],
): Promise<Outcome> {
  let outcome: Outcome = ignored("no linked pull request");
  for (const [i, t] of targets.entries()) {
    const last = i === targets.length - 1;
    const result = await monitorPull(deps, t, last ? delivery.deliveryId : null);
    if (result.kind === "applied") outcome = result;
  }
  return outcome;
}

/**
 * Runs a gate handler first (it keeps its replies and receipts), then the monitor. The
 * delivery is marked by whichever committed; if both did, the monitor's write is unmarked
 * and idempotent on a retry (fingerprints).
 */
function andMonitor<E extends { installation: { id: number }; repository: Repository }>(
  first: (deps: AppDeps, delivery: Delivery, e: E) => Promise<Outcome>,
  pr: (e: E) => number,
) {
  return async (deps: AppDeps, delivery: Delivery, e: E): Promise<Outcome> => {
    const gated = await first(deps, delivery, e);
    const t = target(e.installation.id, e.repository, pr(e));
    const monitored = await monitorPull(
      deps,
      t,
      gated.kind === "applied" ? null : delivery.deliveryId,
    );
    return gated.kind === "applied" ? gated : monitored;
  };
}

/**
 * PRs of this repository whose recorded head is `sha`: a commit status names no PR, and
 * check runs never list a PR whose head is in a fork (a linked fork PR).
 */
async function pullsWithHead(deps: AppDeps, repoId: number, sha: string): Promise<number[]> {
  return deps.store.pullsWithHead(repoId, sha);
}

/** The PRs a check result is about: those GitHub lists, and linked ones with that head. */
async function checkedPulls(
  deps: AppDeps,
  repoId: number,
  check: { head_sha: string; pull_requests: { number: number }[] },
): Promise<number[]> {
  const listed = check.pull_requests.map((p) => p.number);
  return [...new Set([...listed, ...(await pullsWithHead(deps, repoId, check.head_sha))])];
}

/**
 * The PR monitor's webhooks. `pull_request.synchronize` and
 * `pull_request_review.submitted` keep their gate handlers and add the monitor.
 */
export const PULL_HANDLERS: Routes = {
  pull_request: on(PullRequestChanged, (deps, delivery, e) =>
    monitorAll(deps, delivery, [target(e.installation.id, e.repository, e.pull_request.number)]),
  ),
  "pull_request.synchronize": on(
    PullRequestEvent,
    andMonitor(onPullRequestPush, (e) => e.pull_request.number),
  ),
  "pull_request_review.submitted": on(
    PullRequestReviewEvent,
    andMonitor(onPullRequestReview, (e) => e.pull_request.number),
  ),
  pull_request_review: on(PullRequestChanged, (deps, delivery, e) =>
    monitorAll(deps, delivery, [target(e.installation.id, e.repository, e.pull_request.number)]),
  ),
  pull_request_review_comment: on(PullRequestChanged, (deps, delivery, e) =>
    monitorAll(deps, delivery, [target(e.installation.id, e.repository, e.pull_request.number)]),
  ),
  pull_request_review_thread: on(PullRequestChanged, (deps, delivery, e) =>
    monitorAll(deps, delivery, [target(e.installation.id, e.repository, e.pull_request.number)]),
  ),
  "check_run.completed": on(CheckRunChanged, async (deps, delivery, e) =>
    monitorAll(
      deps,
      delivery,
      (await checkedPulls(deps, e.repository.id, e.check_run)).map((n) =>
        target(e.installation.id, e.repository, n),
      ),
    ),
  ),
  "check_suite.completed": on(CheckSuiteChanged, async (deps, delivery, e) =>
    monitorAll(
      deps,
      delivery,
      (await checkedPulls(deps, e.repository.id, e.check_suite)).map((n) =>
        target(e.installation.id, e.repository, n),
      ),
    ),
  ),
  status: on(StatusChanged, async (deps, delivery, e) => {
    const numbers = await pullsWithHead(deps, e.repository.id, e.sha);
    return monitorAll(
      deps,
      delivery,
      numbers.map((n) => target(e.installation.id, e.repository, n)),
    );
  }),
};
