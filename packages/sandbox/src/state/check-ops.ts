import { renderSuite } from "../render/checks.ts";
import type { RouteContext } from "../routes/context.ts";
import type { CheckSuite, Repo, User } from "./types.ts";

/** The app's check suite for a commit, created (queued) on first use, as GitHub does. */
export function findOrCreateSuite(
  ctx: RouteContext,
  repo: Repo,
  app: number,
  sha: string,
): CheckSuite {
  const { store, clock } = ctx;
  const found = [...store.checkSuites.values()].find(
    (s) => s.repoId === repo.id && s.appId === app && s.headSha === sha,
  );
  if (found) return found;
  const branch = [...repo.branches.entries()].find(([, s]) => s === sha)?.[0] ?? null;
  const suite: CheckSuite = {
    id: store.id(),
    repoId: repo.id,
    appId: app,
    headSha: sha,
    headBranch: branch,
    status: "queued",
    conclusion: null,
    createdAt: clock.now(),
    updatedAt: clock.now(),
  };
  store.checkSuites.set(suite.id, suite);
  return suite;
}

/**
 * Derives a suite's status and conclusion from its runs. Its completion is announced
 * (`check_suite.completed`) when a run completing leaves every run of the suite completed:
 * once per suite, and again after a re-run (a new run, or a run completed anew) completes it
 * once more, as GitHub does. `runCompleted` says a run has just been completed (created so, or
 * updated with a conclusion); an update of anything else announces nothing.
 */
export function settleCheckSuite(
  ctx: RouteContext,
  suite: CheckSuite,
  sender: User,
  runCompleted = false,
): void {
  const { store, render, clock, bus } = ctx;
  const runs = [...store.checkRuns.values()].filter((r) => r.suiteId === suite.id);
  const done = runs.length > 0 && runs.every((r) => r.status === "completed");
  suite.updatedAt = clock.now();
  if (!done) {
    suite.status = runs.some((r) => r.status === "in_progress") ? "in_progress" : "queued";
    suite.conclusion = null;
    return;
  }
  if (suite.status === "completed" && !runCompleted) return;
  // The newest run of each name is its verdict: a re-run replaces the attempt before it.
  const latest = new Map<string, string | null>();
  for (const r of [...runs].sort((a, b) => a.id - b.id)) latest.set(r.name, r.conclusion);
  const conclusions = [...latest.values()];
  const order = [
    "action_required",
    "cancelled",
    "timed_out",
    "failure",
    "neutral",
    "skipped",
    "success",
  ];
  suite.status = "completed";
  suite.conclusion = order.find((c) => conclusions.includes(c)) ?? "success";
  bus.emit("check_suite", store.repo(suite.repoId), sender, {
    action: "completed",
    check_suite: renderSuite(render, suite, "webhook"),
  });
}
