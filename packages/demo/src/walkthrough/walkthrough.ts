import { randomUUID } from "node:crypto";
import {
  type Actor,
  applyTickResult,
  approveGate,
  claimNext,
  createGoal,
  decide,
  type GoalState,
  type HarnessResult,
  isAwaitingPullRequest,
  observePullRequest,
  openGate,
  requestPullRequest,
  type TransitionContext,
  trackPullRequest,
} from "@loopx/core";
import type { Store } from "@loopx/store";

/**
 * A guided run of the kernel and the store on one goal, with scripted slices in place of a
 * harness: the kernel alone (`npm run walkthrough`); `npm run demo` runs the whole loop on the sandbox.
 * Every step is a real transition committed in one transaction.
 */
export interface WalkthroughReport {
  goalId: string;
  issueNumber: number;
  routes: string[];
  finalStatus: string;
  ticks: number;
  slotsSpent: number;
  spentUsd: number;
  outbox: number;
}

const OWNER: Actor = { kind: "human", login: "octo-owner", trusted: true };
const APP: Actor = { kind: "app" };
const AGENT = "walkthrough-agent";
const LEASE_MS = 30 * 60_000;

const ctx = (actor: Actor, now: Date): TransitionContext => ({ actor, now, newId: randomUUID });

const slice = (todo: string, over: Partial<HarnessResult>): HarnessResult => ({
  todo,
  outcome: "completed",
  failure: null,
  validation: { command: "npm test", exitCode: 0, passed: true, summary: "12 passed" },
  commits: [],
  evidence: [],
  handoff: { done: "", next: "", questions: [] },
  continuation: { kind: "goal_active" },
  proposedTodos: [],
  gateRequests: [],
  cost: { usd: 0.42, tokens: 18_000, runnerMinutes: 4 },
  metering: "proxy",
  withheld: [],
  sessionId: null,
  ...over,
});

/** What each scripted slice reports, keyed by the todo the kernel hands out. */
const SLICES: Record<string, HarnessResult> = {
  T1: slice("T1", {
    evidence: [
      { kind: "test", summary: "parseDate('2024-02-29') throws: reproduced", url: null, sha: null },
    ],
    handoff: {
      done: "Reproduced the leap-day failure in a focused test.",
      next: "Fix parseDate.",
      questions: [],
    },
  }),
  T2: slice("T2", {
    commits: [{ sha: "4f9c2d1e7a6b", message: "Handle leap days in parseDate" }],
    handoff: {
      done: "parseDate accepts Feb 29 in leap years.",
      next: "Publish a patch release.",
      questions: [],
    },
  }),
  T3: slice("T3", {
    evidence: [{ kind: "note", summary: "v1.4.1 tagged", url: null, sha: null }],
    handoff: { done: "Released v1.4.1.", next: "Nothing left.", questions: [] },
    continuation: { kind: "no_followup", reason: "the bug is fixed and released" },
  }),
};

function ensureOk<R extends { ok: boolean }>(
  r: R,
  what: string,
): asserts r is Extract<R, { ok: true }> {
  if (!r.ok) throw new Error(`${what} was refused: ${JSON.stringify(r)}`);
}

export async function runWalkthrough(
  store: Store,
  log: (line: string) => void,
): Promise<WalkthroughReport> {
  const issueNumber = await freeIssueNumber(store);
  const goalId = randomUUID();
  const created = await store.createGoal((now) =>
    createGoal(
      {
        id: goalId,
        installationId: 1,
        repo: { id: 1001, ownerId: 2001, owner: "octo-org", name: "calendar" },
        issue: { id: 900_000 + issueNumber, number: issueNumber },
        objective: {
          title: "parseDate rejects leap days",
          body: "parseDate('2024-02-29') throws. Fix it and ship a patch release.",
          author: "octo-owner",
          authorTrusted: true,
          snapshotAt: now,
        },
        owners: ["octo-owner"],
        harness: "scripted",
        validationCommand: "npm test",
        budget: { usd: 5, ticks: 10 },
        todos: [
          { title: "Reproduce the failure in a focused test" },
          { title: "Fix parseDate for leap days" },
          { title: "Publish a patch release", requiredScopes: ["release"] },
        ],
      },
      ctx(OWNER, now),
    ),
  );
  ensureOk(created, "creating the goal");
  log(`goal created for octo-org/calendar#${issueNumber} with T1–T3 (T3 needs scope "release")`);
  await store.apply(goalId, (s, now) =>
    openGate(s, { question: "Publish a release to npm?", scopes: ["release"] }, ctx(APP, now)),
  );
  log('gate G1 opened: "Publish a release to npm?" covers release');

  const routes: string[] = [];
  for (let step = 0; step < 10; step++) {
    const state = await mustLoad(store, goalId);
    const now = await store.databaseNow();
    const decision = decide(state, now, AGENT);
    routes.push(decision.route);
    log(`decide → ${decision.route}: ${decision.reason}`);
    if (decision.userInstruction) log(`   for you: ${decision.userInstruction}`);
    if (decision.route === "done") break;
    if (decision.route === "ask_human") {
      const gate = decision.gates[0];
      if (!gate) throw new Error("ask_human without a gate in the walkthrough");
      const approved = await store.apply(goalId, (s, t) =>
        approveGate(s, { gate, note: "ship it" }, ctx(OWNER, t)),
      );
      ensureOk(approved, `approving ${gate}`);
      log(`@octo-owner comments "/loopx approve ${gate} ship it" → approved`);
      continue;
    }
    if (decision.route !== "run") throw new Error(`unexpected route ${decision.route}`);
    await runTick(store, goalId, log);
  }

  const final = await mustLoad(store, goalId);
  const outbox = await store.outboxForGoal(goalId);
  const report: WalkthroughReport = {
    goalId,
    issueNumber,
    routes,
    finalStatus: final.goal.status,
    ticks: final.goal.spent.ticks,
    slotsSpent: final.ticks.filter((t) => t.slotSpent).length,
    spentUsd: final.goal.spent.usd,
    outbox: outbox.length,
  };
  log(
    `goal ${report.finalStatus}: ${report.ticks} ticks, ${report.slotsSpent} slots, $${report.spentUsd.toFixed(2)} spent; ${report.outbox} GitHub writes queued in the outbox`,
  );
  return report;
}

async function runTick(store: Store, goalId: string, log: (line: string) => void) {
  const tickId = randomUUID();
  const leaseToken = randomUUID();
  const claim = {
    tickId,
    leaseToken,
    agent: AGENT,
    harness: "scripted",
    run: null,
    leaseTtlMs: LEASE_MS,
  };
  const claimed = await store.apply(goalId, (s, now) => claimNext(s, claim, ctx(APP, now)).result);
  ensureOk(claimed, "the claim");
  const todo = claimed.state.ticks.find((t) => t.id === tickId)?.todo;
  const result = todo ? SLICES[todo] : undefined;
  if (!todo || !result) throw new Error(`no scripted slice for ${todo}`);
  log(`   tick claims ${todo} under a ${LEASE_MS / 60_000}-minute lease; the slice runs`);
  const reported = await store.apply(
    goalId,
    (s, now) =>
      applyTickResult(
        s,
        { tickId, leaseToken, result },
        ctx({ kind: "agent", tickId, harness: "scripted" }, now),
      ),
    { source: { tickId } },
  );
  ensureOk(reported, "the tick result");
  const after = reported.state.todos.find((t) => t.key === todo);
  if (after && isAwaitingPullRequest(after)) {
    log(`   ${todo} finished on its branch: ${result.handoff.done}`);
    await mergeBranch(store, goalId, reported.state, todo, result, log);
    return;
  }
  log(`   ${todo} done: ${result.handoff.done}`);
}

/** What the App and GitHub do for a slice's commits, as kernel transitions: PR, then merge. */
async function mergeBranch(
  store: Store,
  goalId: string,
  state: GoalState,
  todo: string,
  result: HarnessResult,
  log: (line: string) => void,
) {
  const headSha = result.commits.at(-1)?.sha ?? "";
  const branch = `loopx/${state.goal.issue.number}-${todo}`;
  const number = 100 + state.goal.issue.number;
  const steps = [
    (s: GoalState, now: Date) => requestPullRequest(s, { todo, branch, headSha }, ctx(APP, now)),
    (s: GoalState, now: Date) =>
      trackPullRequest(s, { number, todo, headRef: branch, headSha }, ctx(APP, now)),
    (s: GoalState, now: Date) =>
      observePullRequest(
        s,
        { number, state: "merged", headSha, mergeCommitSha: `${headSha}0`.slice(0, 12) },
        ctx(APP, now),
      ),
  ];
  for (const step of steps) ensureOk(await store.apply(goalId, step), `the PR of ${branch}`);
  log(`   the App opens PR #${number} for ${branch}; a person merges it → ${todo} done`);
}

async function mustLoad(store: Store, goalId: string): Promise<GoalState> {
  const state = await store.loadGoal(goalId);
  if (!state) throw new Error(`goal ${goalId} vanished`);
  return state;
}

/** Each run files a new issue number, so the data kept under .loopx/ keeps earlier goals. */
async function freeIssueNumber(store: Store): Promise<number> {
  for (let n = 1; ; n++) {
    if ((await store.findGoalByIssue(1001, n)) === null) return n;
  }
}
