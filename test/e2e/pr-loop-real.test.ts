import type { GoalState } from "@loopx/core";
import { readKey } from "@loopx/github";
import type { Sandbox } from "@loopx/sandbox";
import { dbOf, tables } from "@loopx/store/testing";
import { describe, expect, inject, it } from "vitest";
import { z } from "zod";
import {
  DEMO_REPO,
  FIRST_TODO,
  OWNER,
  REVIEW_REQUEST,
} from "../../packages/demo/src/demo-project.ts";
import type { IssueFixStep, ScenarioFacts } from "../../packages/demo/src/scenario-types.ts";
import { useRealDemo } from "../support/real-demo.ts";

const serverUrl = inject("pgUrl");
const skipReason = serverUrl ? "" : inject("pgSkipReason");
const BOT = "loopx[bot]";

const PullView = z
  .object({
    user: z.object({ login: z.string() }),
    body: z.string().nullable(),
    head: z.object({ ref: z.string(), sha: z.string() }),
    base: z.object({ ref: z.string() }),
    merged: z.boolean(),
  })
  .loose();
const IssueView = z
  .object({
    state: z.string(),
    state_reason: z.string().nullable(),
    closed_by: z.object({ login: z.string() }).nullable(),
    comments_list: z.array(
      z.object({ body: z.string().nullable(), user: z.object({ login: z.string() }) }).loose(),
    ),
  })
  .loose();

/**
 * Issue 6's done-means scenario, end to end with everything real: `npm run demo`'s driver on
 * the sandbox, the App (the composition `npm start` serves) on real PostgreSQL, the repository's
 * tick and wake callers exactly as docs/workflows.md shows them, calling LoopX's reusable
 * workflow and action from loopx/loopx@v1 as the sandbox serves it (the real action bundle, the
 * real `claude` CLI against the scripted model), and the sandbox's CI running the project's
 * tests and lint. The tick API receives the ID tokens GitHub mints in a called workflow.
 * Each step is checked against the rules as it is reached.
 */
describe.skipIf(!serverUrl)(
  `e2e: the issue-fix loop with the real App, action and runner on PostgreSQL${skipReason ? ` — skipped: ${skipReason}` : ""}`,
  () => {
    const demo = useRealDemo(serverUrl ?? "", "loopx-pr-loop-real-");

    it("push → PR → CI fails → repair → review → merge gate → approval → merge → done", async () => {
      let repairKey = "";
      let reviewKey = "";
      let failedHead = "";
      let reviewedHead = "";

      const load = async (facts: ScenarioFacts): Promise<GoalState> => {
        const s = await demo.stack().store.loadGoal(facts.goalId);
        if (!s) throw new Error("the goal is gone");
        return s;
      };
      const sandbox = (): Sandbox => demo.stack().sandbox;
      const pull = (n: number | null) => PullView.parse(sandbox().pull(DEMO_REPO.fullName, n ?? 0));
      // The merge gates still asking or answered (one that stopped asking has expired).
      const mergeGate = (s: GoalState) =>
        s.gates.filter(
          (g) => g.scopes.includes("merge") && (g.status === "open" || g.status === "approved"),
        );

      const checks: Record<IssueFixStep, (f: ScenarioFacts) => Promise<void>> = {
        "goal-started": async (f) => {
          const s = await load(f);
          expect(s.goal.issue.number).toBe(f.issue);
          expect(s.goal.owners).toContain(OWNER);
        },
        "todo-added": async (f) => {
          const s = await load(f);
          expect(s.todos.map((t) => [t.key, t.kind, t.title])).toEqual([
            ["T1", "task", FIRST_TODO],
          ]);
        },
        "pr-opened": async (f) => {
          // The App opens the PR with its own identity, from the todo's branch, on the default
          // branch; it refers to the goal and never closes it (only LoopX closes the goal).
          const pr = pull(f.pr);
          expect(pr.user.login).toBe(BOT);
          expect([pr.head.ref, pr.base.ref]).toEqual([`loopx/${f.issue}-T1`, "main"]);
          expect(pr.body).toContain(`Refs #${f.issue}`);
          expect(pr.body).not.toMatch(new RegExp(`(Fixes|Closes|Resolves) #${f.issue}\\b`, "i"));
          const s = await load(f);
          // The finished todo waits for its PR: the goal is not done before the PR merges.
          expect(s.goal.status).not.toBe("done");
          expect(s.pullRequests.map((p) => p.number)).toEqual([f.pr]);
        },
        "ci-failed": async (f) => {
          failedHead = f.headSha ?? "";
          const failed = [...sandbox().store.checkRuns.values()].filter(
            (c) => c.headSha === failedHead,
          );
          expect(failed.map((c) => c.conclusion)).toContain("failure");
          const s = await load(f);
          const repairs = s.todos.filter((t) => t.kind === "repair");
          expect(repairs).toHaveLength(1);
          repairKey = repairs[0]?.key ?? "";
          expect(repairs[0]?.title).toContain(`#${f.pr}`);
        },
        repaired: async (f) => {
          const s = await load(f);
          // The repair ran on the PR's own branch: same PR, a new head, green checks.
          expect(s.todos.filter((t) => t.kind === "repair")).toHaveLength(1);
          expect(s.todos.find((t) => t.key === repairKey)?.status).toBe("done");
          expect(pull(f.pr).head.ref).toBe(`loopx/${f.issue}-T1`);
          expect(f.headSha).not.toBe(failedHead);
          expect(s.pullRequests).toHaveLength(1);
          // Merge gate: opens when the PR is ready and records its head.
          expect(mergeGate(s)).toMatchObject([
            { status: "open", pr: { number: f.pr, headSha: f.headSha } },
          ]);
        },
        "changes-requested": async (f) => {
          reviewedHead = f.headSha ?? "";
          const s = await load(f);
          const reviews = s.todos.filter((t) => t.kind === "review");
          expect(reviews).toHaveLength(1);
          reviewKey = reviews[0]?.key ?? "";
          // The review's points reach the agent as data in the todo, not as its instructions.
          expect(reviews[0]?.detail).toContain(REVIEW_REQUEST);
        },
        "review-addressed": async (f) => {
          const s = await load(f);
          expect(s.todos.find((t) => t.key === reviewKey)?.status).toBe("done");
          expect(f.headSha).not.toBe(reviewedHead);
          // The push moved the head: the gate asks about the new head, not the reviewed one.
          expect(mergeGate(s)).toMatchObject([
            { status: "open", pr: { number: f.pr, headSha: f.headSha } },
          ]);
        },
        approved: async (f) => {
          const s = await load(f);
          expect(mergeGate(s)).toMatchObject([
            { status: "approved", resolvedBy: OWNER, pr: { headSha: f.headSha } },
          ]);
          // Approval is not a merge: LoopX never merges unless the config allows it.
          expect(pull(f.pr).merged).toBe(false);
          expect(
            sandbox()
              .requests()
              .some((r) => r.operationId === "pulls/merge"),
          ).toBe(false);
        },
        done: async (f) => {
          const s = await load(f);
          expect(s.goal.status).toBe("done");
          expect(s.todos.map((t) => [t.key, t.status])).toEqual(
            s.todos.map((t) => [t.key, "done"]),
          );
          // The merge completes the todos the PR served, with the merge commit as evidence.
          const mergeEvidence = s.evidence.find((e) => e.sha === f.mergeSha);
          expect(mergeEvidence?.kind).toBe("pr");
          expect(s.todos.find((t) => t.key === "T1")?.completion?.evidenceIds).toContain(
            mergeEvidence?.id,
          );
          // One tick per todo, in the order the loop needed them.
          expect(s.ticks.map((t) => t.todo)).toEqual(["T1", repairKey, reviewKey]);
          const issue = IssueView.parse(sandbox().issue(DEMO_REPO.fullName, f.issue));
          expect(issue).toMatchObject({ state: "closed", state_reason: "completed" });
          expect(issue.closed_by?.login).toBe(BOT);
          const reports = issue.comments_list.filter(
            (c) => c.user.login === BOT && readKey(c.body ?? "") === "final_report",
          );
          expect(reports).toHaveLength(1);
          const report = reports[0]?.body ?? "";
          expect(report).toContain(`#${f.pr} merged (merge ${f.mergeSha?.slice(0, 7)})`);
          expect(report).toContain("Ticks: 3;");
          // Every token the tick API accepted is one GitHub mints in a called workflow: the
          // caller's identity (docs/workflows.md's loopx-tick.yml or loopx-wake.yml on main, its
          // run and event), the called file at the tag the caller named (loopx/loopx@v1).
          const accepted = new Set(
            (
              await dbOf(demo.stack().store)
                .select({ jti: tables.usedTokens.jti })
                .from(tables.usedTokens)
            )?.map((r) => r.jti),
          );
          const claims = sandbox().oidc.minted.filter((c) => accepted.has(c.jti));
          expect(claims.length).toBeGreaterThanOrEqual(6);
          const repo = sandbox().store.repoByName(DEMO_REPO.owner, DEMO_REPO.name);
          const v1 = sandbox()
            .store.git(sandbox().store.repoByName("loopx", "loopx"))
            .resolve("refs/tags/v1");
          for (const c of claims) {
            const run = sandbox().store.workflowRuns.get(Number(c.run_id));
            const file = c.job_workflow_ref.includes("loopx-wake.yml")
              ? "loopx-wake.yml"
              : "loopx-tick.yml";
            expect(c).toMatchObject({
              workflow_ref: `${DEMO_REPO.fullName}/.github/workflows/${file}@refs/heads/main`,
              workflow_sha: run?.headSha,
              job_workflow_ref: `loopx/loopx/.github/workflows/${file}@refs/tags/v1`,
              job_workflow_sha: v1,
              event_name: run?.event,
              repository: DEMO_REPO.fullName,
              repository_id: String(repo.id),
              ref: "refs/heads/main",
              run_attempt: "1",
              sub: `repo:${DEMO_REPO.owner}@${repo.ownerId}/${DEMO_REPO.name}@${repo.id}:ref:refs/heads/main`,
            });
            expect(run?.repoId).toBe(repo.id);
          }
        },
      };

      const { result, seen, output } = await demo.run({}, checks);

      expect(seen).toEqual(Object.keys(checks));
      expect(result.state?.goal.status).toBe("done");
      expect(output).toContain("Done in");
    }, 240_000);
  },
);
