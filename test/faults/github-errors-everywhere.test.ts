import { AskResponse, type GoalState } from "@loopx/core";
import { readKey } from "@loopx/github";
import { dbOf, rowsOf, sql } from "@loopx/store/testing";
import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { allowWarning, expectWarning } from "../support/expected-warnings.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Fault: GitHub answers every route the App uses first with a 502, then a 429 and a 403 that
 * carry `retry-after` (the secondary limit), and only then normally — throughout a full goal:
 * label → todo added by command → a tick that asks a gate → approval → a tick that completes
 * → done, final report, issue closed. The run completes; the projection converges (one status
 * comment, one comment per tick, nothing dead-lettered); content-creating requests stay under
 * GitHub's secondary limit of 80 a minute. (One 5xx and one 403 on projection writes:
 * test/e2e/app-projection-faults.test.ts; the content budget itself:
 * test/e2e/app-content-budget.test.ts.)
 */
const repo = { owner: "acme", repo: "widgets" } as const;

describe("fault: 5xx, 429 and 403-with-retry-after on every route, during a full goal", () => {
  let h: TickHarness;
  let alice: Octokit;
  let run = 7100;
  beforeAll(async () => {
    // No ruleset: the harness's own setup request would count among the routes LoopX used.
    h = await startTickHarness({ requiredChecks: [] });
    // Each tick's comment is among the writes that must land exactly once.
    h.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": "comments: sticky\n" }, "alice");
    alice = new Octokit({
      baseUrl: h.sandbox.url,
      auth: h.sandbox.createUserToken("alice"),
      request: { retries: 0 },
    });
    // Every route, whoever calls it (the App, its tick API, the OIDC issuer's keys).
    for (const route of new Set(h.sandbox.routes.map((r) => r.operationId))) {
      h.sandbox.faults.route({ route, status: 502, times: 1 });
      h.sandbox.faults.route({ route, status: 429, retryAfter: 1, times: 1 });
      h.sandbox.faults.route({ route, status: 403, retryAfter: 1, times: 1 });
    }
  });
  afterAll(() => h.close());

  /** Time passing, as the App's timers would see it: retries fall due, loops run. */
  async function until(done: () => Promise<boolean>): Promise<void> {
    for (let round = 0; !(await done()); round++) {
      if (round > 200) throw new Error("no convergence after 200 rounds");
      await dbOf(h.store).execute(
        sql`UPDATE outbox SET next_attempt_at = now() WHERE done_at IS NULL AND dead_at IS NULL`,
      );
      await dbOf(h.store).execute(
        sql`UPDATE inbox SET next_attempt_at = now() WHERE processed_at IS NULL`,
      );
      // As the App's timer runs it: a failed pass is logged and tried again next time.
      await h.app.reconcile().catch(() => null);
      h.app.inbox.kick();
      h.app.outbox.kick();
      await h.settle();
    }
  }

  /** The person's own request, retried as a person (or octokit's retry plugin) would. */
  async function asPerson<T>(call: () => Promise<T>): Promise<T> {
    for (let i = 0; ; i++) {
      try {
        return await call();
      } catch (error) {
        if (i > 5) throw error;
      }
    }
  }

  /** A tick API call, retried as the action's client does on 5xx and 429. */
  async function api(path: string, body: unknown, runId: number) {
    for (let i = 0; ; i++) {
      const answer = await h.post(path, body, await h.token(runId));
      if ((answer.status < 500 && answer.status !== 429) || i > 8) return answer;
      await h.settle();
    }
  }

  const goalOf = async (n: number): Promise<GoalState | null> =>
    h.store.findGoalByIssue(h.repo.id, n);
  // A reminder waits for its delay on purpose (it is posted only if the occasion still waits);
  // every other write must be done.
  const quiet = async () => {
    const s = await h.app.ops.snapshot();
    const reminders = await dbOf(h.store).execute(
      sql`SELECT count(*)::int AS n FROM outbox
          WHERE done_at IS NULL AND dead_at IS NULL AND key LIKE 'notify:%:remind'`,
    );
    const [{ n: waiting }] = z.tuple([z.object({ n: z.number() })]).parse(rowsOf(reminders));
    return s.outbox.pending === waiting && s.inbox.count === 0;
  };

  async function tick(issue: number, result: (todo: string) => object) {
    run += 1;
    const asked = await api("/api/v1/ticks", { goal: issue }, run);
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const claim = AskResponse.parse(asked.body);
    if (!claim.run) throw new Error(`expected a run: ${claim.reason}`);
    const sent = await api(
      `/api/v1/ticks/${claim.tickId}/result`,
      { leaseToken: claim.leaseToken, result: result(claim.todo) },
      run,
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await until(quiet);
  }

  it("completes, converges, and keeps content creation under 80 a minute", async () => {
    // Every route fails a few times: deliveries and outbox writes say they will retry, and a
    // reaction (best effort, never retried) says it was not made.
    expectWarning(/^delivery .* failed, will retry: /);
    expectWarning(/^outbox .* will retry: /);
    allowWarning(/^reacting \S+ to comment \d+: /);
    const { data: issue } = await asPerson(() =>
      alice.rest.issues.create({ ...repo, title: "Parse widget files", body: "They are YAML." }),
    );
    await asPerson(() =>
      alice.rest.issues.addLabels({ ...repo, issue_number: issue.number, labels: ["loopx"] }),
    );
    await until(async () => (await goalOf(issue.number)) !== null && (await quiet()));
    await asPerson(() =>
      alice.rest.issues.createComment({
        ...repo,
        issue_number: issue.number,
        body: "/loopx todo add Write the parser",
      }),
    );
    await until(
      async () => ((await goalOf(issue.number))?.todos.length ?? 0) > 0 && (await quiet()),
    );

    await tick(issue.number, (todo) => ({
      todo,
      outcome: "progress",
      validation: { command: "npm test", exitCode: 0, passed: true, summary: "green" },
      evidence: [{ kind: "note", summary: "parser skeleton" }],
      handoff: { done: "Skeleton.", next: "Finish it.", questions: [] },
      gateRequests: [{ question: "May the parser replace the old loader?", scopes: ["merge"] }],
      cost: { usd: 0.2, tokens: 1000, runnerMinutes: 2 },
    }));
    const gate = (await goalOf(issue.number))?.gates.find((g) => g.status === "open");
    expect(gate?.key).toBe("G1");
    await asPerson(() =>
      alice.rest.issues.createComment({
        ...repo,
        issue_number: issue.number,
        body: "/loopx approve G1",
      }),
    );
    await until(
      async () => (await goalOf(issue.number))?.gates[0]?.status === "approved" && (await quiet()),
    );

    await tick(issue.number, (todo) => ({
      todo,
      outcome: "completed",
      continuation: { kind: "no_followup", reason: "the parser is done" },
      validation: { command: "npm test", exitCode: 0, passed: true, summary: "green" },
      evidence: [{ kind: "test", summary: "npm test green" }],
      handoff: { done: "Parser done.", next: "", questions: [] },
      cost: { usd: 0.3, tokens: 2000, runnerMinutes: 3 },
    }));
    await until(
      async () => (await goalOf(issue.number))?.goal.status === "done" && (await quiet()),
    );

    // Every route LoopX used saw all three faults before it succeeded.
    const log = h.sandbox.requests();
    // (Routes only: git over HTTP and unsupported paths have no operationId and no faults.)
    const used = new Set(
      log.filter((r) => r.status < 400 && r.operationId !== null).map((r) => r.operationId),
    );
    for (const op of used) {
      const statuses = new Set(log.filter((r) => r.operationId === op).map((r) => r.status));
      expect([op, statuses.has(502) && statuses.has(429) && statuses.has(403)]).toEqual([op, true]);
    }
    expect(used.has("issues/create-comment")).toBe(true);

    // The projection converged: one status comment, one comment per tick, the issue closed.
    const comments = await alice.paginate(alice.rest.issues.listComments, {
      ...repo,
      issue_number: issue.number,
      per_page: 100,
    });
    const keys = comments
      .filter((c) => c.user?.login === "loopx[bot]")
      .map((c) => readKey(c.body ?? ""));
    expect(keys.filter((k) => k === "status")).toHaveLength(1);
    expect(new Set(keys).size).toBe(keys.length);
    const state = await goalOf(issue.number);
    // Both ticks were productive (validated progress, then completion): one comment each.
    const ticks = (state?.ticks ?? []).map((t) => `tick:${t.id}`);
    expect(ticks).toHaveLength(2);
    expect([...keys].sort()).toEqual(
      ["status", "gate:G1:opened", "notify:gate:G1", "receipt:gate:G1:approved", ...ticks].sort(),
    );
    // The gate's reminder was settled unsent: the gate was answered before it was due.
    expect((await h.app.ops.snapshot()).outbox.pending).toBe(0);
    const { data: closed } = await alice.rest.issues.get({ ...repo, issue_number: issue.number });
    expect(closed.state).toBe("closed");
    expect((await h.app.ops.snapshot()).deadLetters).toBe(0);

    // Content creation, in any 60 s of the sandbox's clock, stayed under GitHub's 80.
    const created = log.filter((r) => r.contentCreating).map((r) => r.at);
    const busiest = Math.max(
      ...created.map((t) => created.filter((u) => u >= t && u < t + 60_000).length),
    );
    expect(busiest).toBeLessThan(80);
  });
});
