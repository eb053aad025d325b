/**
 * The webhook mix on one App (real HTTP, signature check, inbox, worker, handlers, store):
 * 60 % `check_run.completed` on PRs goals watch, 20 % comments on goals with 1,000 todos,
 * 10 % `issues.labeled` (each starts a goal), 10 % events LoopX has no handler for; and on
 * top, each head's `check_suite.completed` right after its CHECKS runs (one per 20 runs).
 *
 * The check runs conclude `success`, as most do. The PR monitor acts once per head and check
 * suite: a passing run is parsed by the App's schema as it arrives and stored processed (no
 * worker pass, no GitHub read, no transition); its suite's completion reads the PR and its
 * checks and commits the monitor's transition. Runs of SUITES_AT_ONCE heads interleave, as
 * CI of several PRs does.
 *
 * An event counts when its delivery's transaction commits: the transition with its outbox
 * rows and the delivery mark, or the intake record; a delivery that changes nothing counts
 * when its row is stored processed (an unrelated event, a passing check run: settled on
 * arrival) or when the worker marks it so (a reading that is not new). Payloads: labels and
 * comments as the sandbox renders them, check runs, suites and stars from
 * @octokit/webhooks-examples with this repository, installation, head and PR. Each is parsed by the App's own schemas before it is sent.
 *
 * GitHub reads are answered in memory (permission, loopx.yml, and the PR monitor's: the PR,
 * its checks, statuses, waiting runs, reviews, required checks, commit message): a head is
 * read when its suite has completed, so its CHECKS checks read as completed and successful.
 */
import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import { createGoal, trackPullRequest } from "@loopx/core";
import type { GitHubPort } from "@loopx/github";
import type { Store } from "@loopx/store";
import { dbOf, rowsOf, sql } from "@loopx/store/testing";
import { Octokit } from "@octokit/rest";
import webhookExamples from "@octokit/webhooks-examples";
import { z } from "zod";
import { IssueCommentEvent } from "../app/src/comments/comment-payload.ts";
import { CheckRunChanged, CheckSuiteChanged } from "../app/src/pulls/pull-payloads.ts";
import type { Sandbox } from "../packages/sandbox/src/index.ts";
import type { SignedDelivery } from "./webhook-sender.ts";

export const MIX = { checkRun: 0.6, comment: 0.2, label: 0.1, unrelated: 0.1 } as const;
/** One of the mix's kinds, sent alone to see what each costs (`checkRun` with its suites). */
export type MixKind = keyof typeof MIX;
/** The mix's kind for the i-th delivery: 6 in 10 check runs, 2 comments, a label, an unrelated. */
const KIND_BY_SLOT: readonly MixKind[] = [
  ...Array<MixKind>(6).fill("checkRun"),
  "comment",
  "comment",
  "label",
  "unrelated",
];
export const WATCHED_PULLS = 50;
export const BIG_GOALS = 10;
export const TODOS_PER_BIG_GOAL = 1000;
const CHECKS = 20;
/** Heads whose CI runs at once: their check runs interleave, then their suites complete. */
const SUITES_AT_ONCE = 5;

export interface MixDelivery {
  id: string;
  event: string;
  body: string;
}

interface Example {
  name: string;
  examples: Record<string, unknown>[];
}

function example(name: string, action: string): Record<string, unknown> {
  const list: Example[] = webhookExamples as unknown as Example[];
  const found = list.find((e) => e.name === name)?.examples.find((x) => x.action === action);
  if (!found) throw new Error(`@octokit/webhooks-examples has no ${name}.${action}`);
  return structuredClone(found);
}

const sha = (i: number) => (0xabc00000 + i).toString(16).padEnd(40, "0");

/**
 * Seeds the goals (on the store, with the sandbox's repository and issues) and renders the
 * deliveries: `n` in the mix's proportions, interleaved as a firehose is, or `n` of `only`.
 */
export async function seedMix(
  store: Store,
  sandbox: Sandbox,
  labeled: string[],
  n: number,
  installationId: number,
  only?: MixKind,
): Promise<MixDelivery[]> {
  const alice = new Octokit({
    baseUrl: sandbox.url,
    auth: sandbox.createUserToken("alice"),
    request: { retries: 0 },
  });
  const { data: repo } = await alice.rest.repos.get({ owner: "acme", repo: "widgets" });
  const installation = { id: installationId };
  const repoRef = { id: repo.id, ownerId: repo.owner.id, owner: "acme", name: "widgets" };
  const issues = [];
  for (let i = 0; i < WATCHED_PULLS + BIG_GOALS; i++) {
    const { data } = await alice.rest.issues.create({
      owner: "acme",
      repo: "widgets",
      title: `mix goal ${i}`,
    });
    issues.push(data);
  }
  const goals: string[] = [];
  for (const issue of issues) {
    const made = await store.createGoal((now) =>
      createGoal(
        {
          id: randomUUID(),
          installationId: installation.id,
          repo: repoRef,
          issue: { id: issue.id, number: issue.number },
          objective: {
            title: issue.title,
            body: "",
            author: "alice",
            authorTrusted: true,
            snapshotAt: now,
          },
          owners: ["alice"],
          harness: "shell",
          todos: [{ title: "the open step" }],
        },
        { actor: { kind: "app" }, now, newId: randomUUID },
      ),
    );
    if (!made.ok) throw new Error(made.refusal.message);
    goals.push(made.state.goal.id);
  }
  // A watched PR per goal, recorded as the outbox does after it opens one.
  const pulls = issues.slice(0, WATCHED_PULLS).map((issue, i) => ({ number: 10_000 + i, issue }));
  for (const [i, p] of pulls.entries()) {
    const tracked = await store.apply(goals[i] ?? "", (s, now) =>
      trackPullRequest(
        s,
        { number: p.number, todo: "T1", headRef: `loopx/${p.issue.number}-T1`, headSha: sha(i) },
        { actor: { kind: "app" }, now, newId: randomUUID },
      ),
    );
    if (!tracked.ok) throw new Error(tracked.refusal.message);
  }
  // 999 finished todos behind each big goal's open one, as rows (cycles would take hours).
  for (const goalId of goals.slice(WATCHED_PULLS)) {
    await dbOf(store).execute(sql`
      INSERT INTO todos (goal_id, key, ordinal, title, status, kind, position, origin, required_scopes, completion, created_at, updated_at)
      SELECT ${goalId}, 'T' || (n + 1), n + 1, 'Finished step ' || n, 'done', 'task', -n, 'human', '[]'::jsonb,
             jsonb_build_object('continuation', jsonb_build_object('kind', 'goal_active'), 'evidenceIds', jsonb_build_array('00000000-0000-4000-8000-000000000001'), 'tickId', null, 'at', to_json(now() - interval '1 day' + n * interval '1 second')),
             now(), now()
        FROM generate_series(1, ${TODOS_PER_BIG_GOAL - 1}::int) n`);
    await dbOf(store).execute(
      sql`UPDATE goals SET counters = jsonb_set(counters, '{todo}', to_jsonb(${TODOS_PER_BIG_GOAL + 1}::int)) WHERE id = ${goalId}`,
    );
  }
  await dbOf(store).execute(sql`ANALYZE`);

  // Comments as the sandbox renders them: plain notes from a writer on the big goals.
  const big = issues.slice(WATCHED_PULLS);
  const comments = only === "comment" ? n : only ? 0 : Math.round(n * MIX.comment);
  const before = sandbox.emitted.length;
  for (let i = 0; i < comments; i++) {
    await alice.rest.issues.createComment({
      owner: "acme",
      repo: "widgets",
      issue_number: big[i % big.length]?.number ?? 1,
      body: `note ${i}: the staging run looked fine`,
    });
  }
  await sandbox.settle();
  const commentBodies = sandbox.emitted
    .slice(before)
    .filter((e) => e.event === "issue_comment" && e.payload.action === "created")
    .map((e) => JSON.stringify(IssueCommentEvent.parse(e.payload) && e.payload));

  const repository = {
    ...(example("check_run", "completed").repository as object),
    id: repo.id,
    name: "widgets",
    full_name: "acme/widgets",
    owner: { login: "acme", id: repo.owner.id, type: "Organization" },
  };
  // Run k: heads go SUITES_AT_ONCE at a time, each getting its CHECKS runs interleaved.
  const headOf = (k: number) =>
    (Math.floor(k / (CHECKS * SUITES_AT_ONCE)) * SUITES_AT_ONCE + (k % SUITES_AT_ONCE)) %
    WATCHED_PULLS;
  const pullRefs = (pr: number) => [
    {
      id: 70_000 + pr,
      number: 10_000 + pr,
      head: {
        ref: `loopx/${pulls[pr]?.issue.number}-T1`,
        sha: sha(pr),
        repo: { id: repo.id, name: "widgets", url: repo.url },
      },
      base: {
        ref: "main",
        sha: sha(9999),
        repo: { id: repo.id, name: "widgets", url: repo.url },
      },
      url: `${repo.url}/pulls/${10_000 + pr}`,
    },
  ];
  const checkRun = (k: number) => {
    const pr = headOf(k);
    const body = example("check_run", "completed");
    const run = body.check_run as Record<string, unknown>;
    Object.assign(run, {
      id: 900_000 + k,
      name: `ci-${(Math.floor(k / SUITES_AT_ONCE) % CHECKS) + 1}`,
      head_sha: sha(pr),
      status: "completed",
      conclusion: "success",
      pull_requests: pullRefs(pr),
    });
    Object.assign(body, { repository, installation });
    return JSON.stringify(CheckRunChanged.parse(body) && body);
  };
  const checkSuite = (pr: number) => {
    const body = example("check_suite", "completed");
    const suite = body.check_suite as Record<string, unknown>;
    Object.assign(suite, {
      id: 800_000 + pr,
      head_sha: sha(pr),
      head_branch: `loopx/${pulls[pr]?.issue.number}-T1`,
      status: "completed",
      conclusion: "success",
      latest_check_runs_count: CHECKS,
      pull_requests: pullRefs(pr),
    });
    Object.assign(body, { repository, installation });
    return JSON.stringify(CheckSuiteChanged.parse(body) && body);
  };
  const unrelated = () => {
    const body = example("star", "created");
    Object.assign(body, { repository, installation });
    return JSON.stringify(body);
  };

  const out: MixDelivery[] = [];
  let c = 0;
  let k = 0;
  let l = 0;
  for (let i = 0; i < n; i++) {
    const kind = only ?? KIND_BY_SLOT[i % KIND_BY_SLOT.length];
    const id = `mix-${i}`;
    if (kind === "checkRun") {
      const run = k++;
      out.push({ id, event: "check_run", body: checkRun(run) });
      // The head's last run: its suite completes.
      if (Math.floor(run / SUITES_AT_ONCE) % CHECKS === CHECKS - 1) {
        out.push({ id: `${id}-suite`, event: "check_suite", body: checkSuite(headOf(run)) });
      }
    } else if (kind === "comment" && c < commentBodies.length)
      out.push({ id, event: "issue_comment", body: commentBodies[c++] ?? "" });
    else if (kind === "label" && l < labeled.length)
      out.push({ id, event: "issues", body: labeled[l++] ?? "" });
    else out.push({ id, event: "star", body: unrelated() });
  }
  return out;
}

/** The PR monitor's reads, in memory: a head is read once its suite is done, all green. */
export function pullReadsInMemory(port: GitHubPort): GitHubPort {
  return {
    ...port,
    getPull: async (_repo, number) => {
      const i = number - 10_000;
      return {
        number,
        headSha: sha(i),
        headRef: `loopx/${i}-T1`,
        baseRef: "main",
        state: "open",
        merged: false,
        author: "loopx[bot]",
        requestedReviewers: [],
        headRepo: "acme/widgets",
        draft: false,
        mergeable: true,
        mergeableState: "blocked",
        mergeCommitSha: null,
        body: "",
        size: null,
      };
    },
    listChecks: async () =>
      Array.from({ length: CHECKS }, (_, j) => ({
        name: `ci-${j + 1}`,
        status: "success" as const,
        url: null,
      })),
    listStatuses: async () => [],
    listWaitingRuns: async () => [],
    listReviews: async () => [],
    requiredChecks: async () => ["ci-1"],
    commitMessage: async () => "a step",
    listPullFiles: async () => ({ files: [], complete: true }),
    listReviewThreads: async () => ({ threads: [], complete: true }),
  };
}

const OutcomeRow = z.object({ event: z.string(), ignored: z.boolean(), n: z.coerce.number() });

/** Per event: deliveries that committed a change, and those marked as changing nothing. */
export async function outcomes(store: Store): Promise<string> {
  const rows = rowsOf(
    await dbOf(store).execute(sql`
      SELECT event, coalesce(outcome LIKE 'ignored%', false) AS ignored, count(*) AS n
        FROM inbox WHERE processed_at IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`),
  ).map((r) => OutcomeRow.parse(r));
  return rows.map((r) => `${r.event} ${r.ignored ? "unchanged" : "changed"} ${r.n}`).join(", ");
}

export const loadAverage = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
export type { SignedDelivery };
