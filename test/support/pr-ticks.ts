/**
 * Plays one productive tick through the tick API, as the workflow's jobs would: ask (claim a
 * todo), push its branch to the sandbox (the report job's push), report the result, then
 * tell the App the branch was pushed. Shared by the pr-*.test.ts scenarios.
 */
import { AskResponse, PushedResponse, ResultResponse } from "@loopx/core";
import { readKey } from "@loopx/github";
import { Octokit } from "@octokit/rest";
import { z } from "zod";
import type { TickHarness } from "./tick-api-harness.ts";

export interface PlayedTick {
  tickId: string;
  todo: string;
  branch: string;
  sha: string;
}

let nextRun = 7000;

/** What playing a tick needs: the tick API of some App, and the sandbox it works on. */
export type TickClient = Pick<TickHarness, "post" | "token" | "sandbox" | "repo">;

type Claim = Extract<AskResponse, { run: true }>;

/**
 * The ask job's call: the claim of a run (anything else throws), under `runId` when the
 * caller names a run the sandbox recorded, else under a new run id.
 */
export async function claimTick(
  h: TickClient,
  issue: number,
  runId: number = nextRun++,
): Promise<{ runId: number; claim: Claim }> {
  const claim = AskResponse.parse(
    (await h.post("/api/v1/ticks", { goal: issue }, await h.token(runId))).body,
  );
  if (!claim.run) throw new Error(`expected a run, got: ${claim.reason}`);
  return { runId, claim };
}

/** The report job's result for a claim; refused results throw. */
async function report(h: TickClient, runId: number, claim: Claim, result: object): Promise<void> {
  const reported = await h.post(
    `/api/v1/ticks/${claim.tickId}/result`,
    { leaseToken: claim.leaseToken, result: { todo: claim.todo, ...result } },
    await h.token(runId),
  );
  if (reported.status !== 200) throw new Error(`result refused: ${JSON.stringify(reported.body)}`);
  ResultResponse.parse(reported.body);
}

export async function playTick(
  h: TickClient,
  issue: number,
  files: Record<string, string | null>,
  opts: {
    complete?: boolean;
    runId?: number;
    /** Runs while the slice would: after the claim, before the push and the report. */
    duringSlice?: () => Promise<void>;
  } = {},
): Promise<PlayedTick> {
  const { runId, claim } = await claimTick(h, issue, opts.runId);
  await opts.duringSlice?.();
  // The agent's commit on the todo branch (the sandbox commits what the report job pushes).
  const sha = h.sandbox.push(h.repo.fullName, claim.branch, files, "alice", `${claim.todo} work`);
  await report(h, runId, claim, {
    // Completing says the goal goes on: the PR still has to merge.
    ...(opts.complete
      ? { outcome: "completed", continuation: { kind: "goal_active" } }
      : { outcome: "progress" }),
    validation: { command: "npm test", exitCode: 0, passed: true, summary: "ok" },
    commits: [{ sha, message: `${claim.todo} work` }],
    handoff: { done: `Worked on ${claim.todo}.`, next: "Review it.", questions: [] },
    cost: { usd: 0.25, tokens: 1000, runnerMinutes: 3 },
    // As the metering proxy counted it. Runner minutes are never the result's: these calls
    // have no workflow run behind them, so the jobs API has none and the tick's cap is charged.
    metering: "proxy",
  });
  await pushed(h, runId, claim.tickId, claim.leaseToken, claim.branch, sha);
  return { tickId: claim.tickId, todo: claim.todo, branch: claim.branch, sha };
}

/**
 * Plays a slice whose agent lacks authority: it changes nothing and asks for a gate on
 * `scopes` instead. Returns the todo it claimed and the tick's id.
 */
export async function playGateRequest(
  h: TickClient,
  issue: number,
  gate: { question: string; scopes: string[] },
): Promise<{ tickId: string; todo: string }> {
  const { runId, claim } = await claimTick(h, issue);
  await report(h, runId, claim, {
    outcome: "no_change",
    handoff: { done: "Nothing yet.", next: `Wait for: ${gate.question}`, questions: [] },
    gateRequests: [gate],
    cost: { usd: 0.05, tokens: 100, runnerMinutes: 1 },
    metering: "proxy",
  });
  return { tickId: claim.tickId, todo: claim.todo };
}

/**
 * Plays a planning slice: the ask must route to replan; the slice completes (the goal goes on)
 * with `handoff.done` and the todos it proposes, no commits. Returns the result's HTTP status.
 */
export async function playPlanTick(
  h: TickClient,
  issue: number,
  plan: {
    done: string;
    next: string;
    proposedTodos?: { title: string }[];
    revisions?: { reword?: { todo: string; title: string }[] };
  },
): Promise<number> {
  const runId = nextRun++;
  const asked = AskResponse.parse(
    (await h.post("/api/v1/ticks", { goal: issue }, await h.token(runId))).body,
  );
  if (!asked.run || asked.route !== "replan")
    throw new Error(`expected a planning slice, got: ${asked.reason}`);
  const reported = await h.post(
    `/api/v1/ticks/${asked.tickId}/result`,
    {
      leaseToken: asked.leaseToken,
      result: {
        todo: asked.todo,
        outcome: "completed",
        continuation: { kind: "goal_active" },
        validation: { command: "npm test", exitCode: 0, passed: true, summary: "ok" },
        handoff: { done: plan.done, next: plan.next, questions: [] },
        proposedTodos: plan.proposedTodos ?? [],
        ...(plan.revisions ? { revisions: plan.revisions } : {}),
        cost: { usd: 0.1, tokens: 100, runnerMinutes: 1 },
      },
    },
    await h.token(runId),
  );
  return reported.status;
}

/** POST …/pushed for a head of the tick's branch. */
export async function pushed(
  h: TickClient,
  runId: number,
  tickId: string,
  leaseToken: string,
  branch: string,
  headSha: string,
): Promise<PushedResponse> {
  const answer = await h.post(
    `/api/v1/ticks/${tickId}/pushed`,
    { leaseToken, branch, headSha },
    await h.token(runId),
  );
  if (answer.status !== 200) throw new Error(`pushed refused: ${JSON.stringify(answer.body)}`);
  return PushedResponse.parse(answer.body);
}

/** A person's REST client on the sandbox (a PAT), e.g. to review, merge or open a PR. */
export function personClient(h: TickHarness, login: string): Octokit {
  return new Octokit({
    baseUrl: h.sandbox.url,
    auth: h.sandbox.createUserToken(login),
    request: { retries: 0 },
  });
}

/** The open PRs of acme/widgets, as GitHub lists them. */
export async function openPulls(h: TickHarness) {
  const { data } = await personClient(h, "alice").rest.pulls.list({
    owner: "acme",
    repo: "widgets",
    state: "all",
  });
  return data;
}

/**
 * The common opening of a PR scenario: a goal, its first tick pushing `files` on the todo's
 * branch and finishing the todo, and the PR the App opened for it once the sandbox and the
 * App are idle. A finished todo waits for its PR, so what the PR monitor makes of the PR's
 * trouble is a repair, review or rebase todo (an unfinished one's next slice would answer it).
 */
export async function firstPull(
  h: TickHarness,
  title: string,
  todos: string[],
  files: Record<string, string>,
) {
  const goal = await h.startGoal(title, todos);
  const tick = await playTick(h, goal.goal.issue.number, files, { complete: true });
  await h.sandbox.idle();
  await h.settle();
  const pr = (await openPulls(h)).find((p) => p.head.ref === tick.branch);
  if (!pr) throw new Error(`no PR was opened for ${tick.branch}`);
  return { goal, tick, pr };
}

const Comment = z.object({
  id: z.number(),
  body: z.string().nullable().optional(),
  user: z.object({ login: z.string() }).nullable().optional(),
});

/** The App's comments on an issue or PR of acme/widgets, as the sandbox holds them, with keys. */
export function botComments(h: Pick<TickHarness, "sandbox">, issue: number) {
  return z
    .array(Comment)
    .parse(h.sandbox.issue("acme/widgets", issue).comments_list)
    .filter((c) => c.user?.login === "loopx[bot]")
    .map((c) => ({ id: c.id, key: readKey(c.body ?? ""), body: c.body ?? "" }));
}

/** The requests the App made with its installation token since request number `from`. */
export function installationRequests(h: Pick<TickHarness, "sandbox">, from: number) {
  return h.sandbox
    .requests()
    .slice(from)
    .filter((r) => r.by?.startsWith("installation:"));
}
