/**
 * Steps both demo scenarios take: the owner files the issue and the goal starts, the held
 * runner is let go, the owner approves a PR, and the goal completes — each read from the
 * goal's state and the sandbox as LoopX's rules say it must look.
 */
import type { GoalState } from "@loopx/core";
import { readKey } from "@loopx/github";
import { z } from "zod";
import type { DemoOptions } from "./demo-options.ts";
import { DEMO_REPO } from "./demo-project.ts";
import type { People } from "./people.ts";
import type { ScenarioFacts, ScenarioIo, StepName } from "./scenario-types.ts";
import type { Stack } from "./start-stack.ts";
import type { Waiter } from "./wait-until.ts";

const BOT = "loopx[bot]";

const IssueView = z
  .object({
    state: z.string(),
    state_reason: z.string().nullable().optional(),
    closed_by: z.object({ login: z.string() }).nullable().optional(),
    comments_list: z.array(
      z.object({ body: z.string().nullable().optional(), user: z.object({ login: z.string() }) }),
    ),
  })
  .loose();

/** The merge gate that is asking (or was answered): an earlier one may have expired. */
export const mergeGate = (s: GoalState | null, pr?: number) =>
  s?.gates.findLast(
    (g) =>
      g.scopes.includes("merge") &&
      g.pr !== null &&
      (pr === undefined || g.pr.number === pr) &&
      (g.status === "open" || g.status === "approved"),
  );

/**
 * The owner files `issue` and labels it loopx; resolves once the App started its goal. Returns
 * the facts the scenario gathers, and `reached`, which hands `onStep` a copy as each step is.
 */
export async function fileGoal(
  stack: Stack,
  io: ScenarioIo,
  issue: { title: string; body: string },
) {
  const { sandbox } = stack;
  const repo = sandbox.store.repoByName(DEMO_REPO.owner, DEMO_REPO.name);
  const prHead = (n: number) => sandbox.store.pull(repo.id, n).headSha;
  const facts: ScenarioFacts = {
    goalId: "",
    issue: 0,
    pr: null,
    headSha: null,
    mergeSha: null,
    merged: [],
    finalReport: null,
  };
  const reached = async (step: StepName) => {
    facts.headSha = facts.pr === null ? null : prHead(facts.pr);
    await io.onStep?.(step, { ...facts });
  };
  facts.issue = await io.people.fileIssue(issue);
  await io.people.labelIssue(facts.issue);
  const started = await io.waiter.until("the goal starts", "LoopX (the App starts the goal)", () =>
    stack.store.findGoalByIssue(repo.id, facts.issue),
  );
  facts.goalId = started.goal.id;
  io.setGoal(started.goal.id);
  io.progress.note(`goal started on ${DEMO_REPO.fullName}#${facts.issue}`);
  return { facts, reached, repo, prHead };
}

/** Waits until the goal is done, its final report posted and its issue closed by LoopX. */
export async function awaitCompletion(
  stack: Stack,
  waiter: Waiter,
  facts: ScenarioFacts,
): Promise<void> {
  await waiter.until(
    "the goal is done, reported and its issue closed by LoopX",
    "LoopX (completion)",
    (s) => {
      if (s?.goal.status !== "done") return false;
      const issue = IssueView.parse(stack.sandbox.issue(DEMO_REPO.fullName, facts.issue));
      const report = issue.comments_list.find(
        (c) => c.user.login === BOT && readKey(c.body ?? "") === "final_report",
      );
      facts.finalReport = report?.body ?? null;
      return issue.state === "closed" && issue.closed_by?.login === BOT && report;
    },
  );
}

/**
 * The runner was held until the goal had its first todo, so that tick 1 works on it rather
 * than planning an empty goal: the dispatches the App made meanwhile run now, in order.
 */
export async function releaseRunner(stack: Stack, people: People, issue: number): Promise<void> {
  const { sandbox } = stack;
  const queued = [...sandbox.store.workflowRuns.values()]
    .filter((r) => r.event === "workflow_dispatch" && r.status === "queued")
    .sort((a, b) => a.id - b.id);
  sandbox.runner.enabled = true;
  for (const run of queued) sandbox.runner.enqueue(run);
  if (queued.length === 0) await people.dispatchTick(issue);
}

export async function approve(
  stack: Stack,
  opts: DemoOptions,
  io: ScenarioIo,
  pr: number,
  gate: string,
  signal: AbortSignal,
): Promise<void> {
  const repo = stack.sandbox.store.repoByName(DEMO_REPO.owner, DEMO_REPO.name);
  const head = () => stack.sandbox.store.pull(repo.id, pr).headSha;
  if (opts.yes) {
    io.progress.note(`--yes: @alice approves PR #${pr} at ${head().slice(0, 7)}`);
    await io.people.approve(pr, head());
    return;
  }
  io.progress.note(`Approve ${gate} in the dashboard: ${stack.appUrl}/loopx`);
  // The terminal may answer too; whichever comes first counts (the gate is read either way).
  if (io.confirm) {
    void io.confirm(`…or approve PR #${pr} here as @alice? [Y/n] `, signal).then(async (yes) => {
      if (yes && !stack.sandbox.store.pull(repo.id, pr).merged) {
        await io.people.approve(pr, head()).catch(() => {});
      }
    });
  }
}
