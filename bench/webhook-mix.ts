/**
 * The webhook mix on one App (real HTTP, signature check, inbox, worker, handlers, store):
 * 60 % `check_run.completed` on PRs goals watch, 20 % comments on goals with 1,000 todos,
 * 10 % `issues.labeled` (each starts a goal), 10 % events LoopX has no handler for.
 *
 * An event counts when its delivery's transaction commits: the transition with its outbox
 * rows and the delivery mark, or the intake record; a delivery that changes nothing (an
 * unrelated event, a check run whose reading is not new) counts when the worker marks it
 * processed. Payloads: labels and comments as the sandbox renders them, check runs and
 * stars from @octokit/webhooks-examples with this repository, installation, head and PR.
 * Each is parsed by the App's own schemas before it is sent.
 *
 * GitHub reads are answered in memory (permission, loopx.yml, and the PR monitor's: the PR,
 * its checks, statuses, waiting runs, reviews, required checks, commit message): each read
 * of a PR sees one more of its head's CHECKS checks completed, so a check run mostly brings
 * a new reading and a transition, as CI finishing one job after another does.
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
import { CheckRunChanged } from "../app/src/pulls/pull-payloads.ts";
import type { Sandbox } from "../packages/sandbox/src/index.ts";
import type { SignedDelivery } from "./webhook-sender.ts";

export const MIX = { checkRun: 0.6, comment: 0.2, label: 0.1, unrelated: 0.1 } as const;
export const WATCHED_PULLS = 50;
export const BIG_GOALS = 10;
export const TODOS_PER_BIG_GOAL = 1000;
const CHECKS = 20;

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
 * deliveries: `n` in the mix's proportions, interleaved as a firehose is.
 */
export async function seedMix(
  store: Store,
  sandbox: Sandbox,
  labeled: string[],
  n: number,
  installationId: number,
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
  const comments = Math.round(n * MIX.comment);
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
  const checkRun = (i: number) => {
    const pr = i % WATCHED_PULLS;
    const body = example("check_run", "completed");
    const run = body.check_run as Record<string, unknown>;
    Object.assign(run, {
      id: 900_000 + i,
      name: `ci-${(Math.floor(i / WATCHED_PULLS) % CHECKS) + 1}`,
      head_sha: sha(pr),
      status: "completed",
      conclusion: "success",
      pull_requests: [
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
      ],
    });
    Object.assign(body, { repository, installation });
    return JSON.stringify(CheckRunChanged.parse(body) && body);
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
    const slot = i % 10;
    const id = `mix-${i}`;
    if (slot < 6) out.push({ id, event: "check_run", body: checkRun(k++) });
    else if (slot < 8 && c < commentBodies.length)
      out.push({ id, event: "issue_comment", body: commentBodies[c++] ?? "" });
    else if (slot === 8 && l < labeled.length)
      out.push({ id, event: "issues", body: labeled[l++] ?? "" });
    else out.push({ id, event: "star", body: unrelated() });
  }
  return out;
}

/** The PR monitor's reads, in memory: one more of the head's checks done per read of its PR. */
export function pullReadsInMemory(port: GitHubPort): GitHubPort {
  const reads = new Map<number, number>();
  return {
    ...port,
    getPull: async (_repo, number) => {
      reads.set(number, (reads.get(number) ?? 0) + 1);
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
      };
    },
    listChecks: async (_repo, head) => {
      const pr = Number.parseInt(head.slice(0, 8), 16) - 0xabc00000 + 10_000;
      const done = Math.min(reads.get(pr) ?? 0, CHECKS);
      return Array.from({ length: CHECKS }, (_, j) => ({
        name: `ci-${j + 1}`,
        status: j < done ? ("success" as const) : ("pending" as const),
        url: null,
      }));
    },
    listStatuses: async () => [],
    listWaitingRuns: async () => [],
    listReviews: async () => [],
    requiredChecks: async () => ["ci-1"],
    commitMessage: async () => "a step",
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
