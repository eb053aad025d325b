import type { Delivery } from "@loopx/store";
import type { AppDeps } from "../deps.ts";
import type { Repository } from "../webhooks/envelope.ts";
import type { Routes, Settles } from "../webhooks/on.ts";
import { on } from "../webhooks/on.ts";
import { ignored, type Outcome } from "../webhooks/outcome.ts";
import { monitorPull, type PullTarget } from "./monitor-pull.ts";
import { monitorPush } from "./monitor-push.ts";
import { onBranchPush } from "./on-branch-push.ts";
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

/** The PRs a check result is about: those GitHub lists, and linked ones with that head. */
async function checkedPulls(
  deps: AppDeps,
  repoId: number,
  check: { head_sha: string; pull_requests: { number: number }[] },
): Promise<number[]> {
  const listed = check.pull_requests.map((p) => p.number);
  return [...new Set([...listed, ...(await deps.store.pullsWithHead(repoId, check.head_sha))])];
}

/** A delivery about one pull request, named in the payload: the monitor reads it again. */
const readThePull = (deps: AppDeps, delivery: Delivery, e: PullRequestChanged) =>
  monitorAll(deps, delivery, [target(e.installation.id, e.repository, e.pull_request.number)]);

const monitorThePull = on(PullRequestChanged, readThePull);

/**
 * `pull_request` actions that change nothing the monitor reads (its verdict is from the head,
 * its checks and statuses, reviews, the base's rules and mergeability): LoopX's own review
 * request echoes back as one, and a reading for it would repeat the one just made.
 */
const UNREAD_ACTIONS = new Set([
  "review_requested",
  "review_request_removed",
  "assigned",
  "unassigned",
  "labeled",
  "unlabeled",
  "milestoned",
  "demilestoned",
  "locked",
  "unlocked",
]);

const pullRequestChanged = on(PullRequestChanged, (deps, delivery, e) =>
  UNREAD_ACTIONS.has(e.action)
    ? Promise.resolve(ignored(`pull_request.${e.action} changes nothing the monitor reads`))
    : readThePull(deps, delivery, e),
);

/**
 * A push to a PR: its gates follow the new head first (they keep their receipts), then the
 * monitor glances at the PR. The delivery is marked by whichever committed; if both did, the
 * monitor's write is unmarked and idempotent on a retry (fingerprints).
 */
const pushed = on(PullRequestEvent, async (deps, delivery, e) => {
  const gated = await onPullRequestPush(deps, delivery, e);
  const monitored = await monitorPush(
    deps,
    target(e.installation.id, e.repository, e.pull_request.number),
    gated.kind === "applied" ? null : delivery.deliveryId,
  );
  return gated.kind === "applied" ? gated : monitored;
});

type Check = {
  head_sha: string;
  pull_requests: { number: number }[];
  app: { slug?: string | undefined } | null;
};

/**
 * A finished check run or suite: the monitor reads every PR it is about. LoopX's own (its
 * gates check) says nothing the monitor reads, so it reads nothing for them.
 */
const monitorChecked =
  <E extends { installation: { id: number }; repository: Repository }>(check: (e: E) => Check) =>
  async (deps: AppDeps, delivery: Delivery, e: E): Promise<Outcome> => {
    const slug = check(e).app?.slug;
    if (slug !== undefined) {
      const bot = await (await deps.readsFor(e.installation.id)).botLogin();
      if (`${slug}[bot]` === bot) return ignored("LoopX's own check");
    }
    return monitorAll(
      deps,
      delivery,
      (await checkedPulls(deps, e.repository.id, check(e))).map((n) =>
        target(e.installation.id, e.repository, n),
      ),
    );
  };

/**
 * Conclusions that cannot start a repair: a run ending so is not the last word on its head.
 * GitHub sends `check_suite.completed` once every run of a suite has completed (again after
 * a re-run reopens it), to every app with read access to checks, GitHub Actions' suites
 * included; that delivery reads the head's verdict. Anything else (failure, timed_out,
 * cancelled, action_required, stale, startup_failure, a value GitHub adds) acts at once, so
 * a repair starts without waiting for the rest of CI. packages/sandbox/README.md cites the docs.
 */
const PASSING = new Set(["success", "neutral", "skipped"]);

/** Why a finished run changes nothing by itself, or null when the monitor must read it. */
function passedRun(e: CheckRunChanged): string | null {
  const conclusion = e.check_run.conclusion ?? null;
  return conclusion !== null && PASSING.has(conclusion)
    ? `check run ${conclusion}: its suite's completion reads the head`
    : null;
}

const checkRunCompleted = on(CheckRunChanged, async (deps, delivery, e) => {
  const passed = passedRun(e);
  if (passed !== null) return ignored(passed);
  return monitorChecked((c: CheckRunChanged) => c.check_run)(deps, delivery, e);
});

/** A passing check run is settled on arrival: most of a busy repository's deliveries. */
export const PULL_SETTLES: Settles = {
  "check_run.completed": (payload) => {
    const e = CheckRunChanged.safeParse(payload);
    return e.success ? passedRun(e.data) : null;
  },
};

/**
 * The PR monitor's webhooks. `pull_request.synchronize` and
 * `pull_request_review.submitted` keep their gate handlers and add the monitor; `push` is a
 * person delivering a todo's change that only they could push, for which a PR is opened.
 */
export const PULL_HANDLERS: Routes = {
  push: onBranchPush,
  pull_request: pullRequestChanged,
  "pull_request.synchronize": pushed,
  "pull_request_review.submitted": on(
    PullRequestReviewEvent,
    andMonitor(onPullRequestReview, (e) => e.pull_request.number),
  ),
  pull_request_review: monitorThePull,
  pull_request_review_comment: monitorThePull,
  pull_request_review_thread: monitorThePull,
  "check_run.completed": checkRunCompleted,
  "check_suite.completed": on(
    CheckSuiteChanged,
    monitorChecked((e) => e.check_suite),
  ),
  // A commit status has no suite and nothing announces that a commit's statuses are all in,
  // so each may be the last word: every one is read.
  status: on(StatusChanged, async (deps, delivery, e) => {
    const numbers = await deps.store.pullsWithHead(e.repository.id, e.sha);
    return monitorAll(
      deps,
      delivery,
      numbers.map((n) => target(e.installation.id, e.repository, n)),
    );
  }),
};
