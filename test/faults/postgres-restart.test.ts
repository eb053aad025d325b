import { ApiError, AskResponse, type GoalState } from "@loopx/core";
import { openStore, type Store } from "@loopx/store";
import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findPgBin, type PgServer, startPostgres } from "../support/postgres-server.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Fault: PostgreSQL goes down in the middle of a run and comes back. While it is down every
 * call fails cleanly — the tick API and /healthz answer with a retryable status and a message
 * saying so, a webhook is refused so GitHub keeps it as failed — and nothing is half-applied.
 * Once it is back, the same calls succeed, the failed webhook is fetched back from GitHub and
 * applied once. A server of its own: restarting the shared one would break other test files.
 */
describe.skipIf(!findPgBin())("fault: PostgreSQL restarted mid-run", () => {
  let pg: PgServer;
  let store: Store;
  let h: TickHarness;
  let goal: GoalState;
  const repo = { owner: "acme", repo: "widgets" } as const;
  beforeAll(async () => {
    pg = await startPostgres();
    store = await openStore({ databaseUrl: pg.url, maxConnections: 4 });
    h = await startTickHarness({ store });
    goal = await h.startGoal("Shard the widget table", ["Plan the shards"]);
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
    await pg?.stop();
  });

  it("fails cleanly while it is down and recovers without losing or doubling anything", async () => {
    const issue = goal.goal.issue.number;
    const alice = new Octokit({
      baseUrl: h.sandbox.url,
      auth: h.sandbox.createUserToken("alice"),
      request: { retries: 0 },
    });
    const before = await h.store.loadGoal(goal.goal.id);
    await pg.halt();

    // The tick API: a retryable refusal the action's client retries, not a crash or a claim.
    const asked = await h.post("/api/v1/ticks", { goal: issue }, await h.token(8101));
    expect(asked.status).toBe(503);
    const refusal = ApiError.parse(asked.body);
    expect(refusal.error).toBe("unavailable");
    expect(refusal.message).toContain("database does not answer");
    const health = await fetch(`${h.apiUrl}/healthz`);
    expect(health.status).toBe(503);
    await health.text();
    // A webhook while the database is down: refused, so GitHub records a failed delivery.
    await alice.rest.issues.createComment({
      ...repo,
      issue_number: issue,
      body: "/loopx todo add Move the hot rows first",
    });
    await h.sandbox.settle();
    const failed = h.sandbox
      .deliveries()
      .filter((d) => d.event === "issue_comment" && d.statusCode >= 500);
    expect(failed).toHaveLength(1);

    await pg.resume();
    // Nothing was half-applied: the goal is exactly as it was.
    const during = await h.store.loadGoal(goal.goal.id);
    expect(during?.goal.version).toBe(before?.goal.version);
    expect(during?.ticks).toEqual(before?.ticks);
    expect(during?.todos).toEqual(before?.todos);
    expect((await fetch(`${h.apiUrl}/healthz`)).status).toBe(200);

    // The failed delivery is fetched back from GitHub and applied once.
    await h.app.reconcile();
    await h.settle();
    const after = await h.store.loadGoal(goal.goal.id);
    expect(after?.todos.map((t) => t.title)).toEqual([
      "Plan the shards",
      "Move the hot rows first",
    ]);
    expect(await h.app.reconcile()).toMatchObject({ recorded: 0 });

    // The same tick API call now succeeds, on a new run (the refused one consumed nothing).
    const retried = await h.post("/api/v1/ticks", { goal: issue }, await h.token(8101));
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(AskResponse.parse(retried.body).run).toBe(true);
    const claimed = await h.store.loadGoal(goal.goal.id);
    expect(claimed?.ticks).toHaveLength((before?.ticks.length ?? 0) + 1);
  });
});
