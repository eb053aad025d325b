import { AskResponse } from "@loopx/core";
import { readKey } from "@loopx/github";
import { dbOf, tables } from "@loopx/store/testing";
import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freshDatabase } from "../support/databases.ts";
import { type Replicas, startReplicas } from "./support/replicas.ts";

const serverUrl = inject("pgUrl");
const repo = { owner: "acme", repo: "widgets" } as const;
const GOALS = 2;

/**
 * Fault: two App replicas on one PostgreSQL, webhooks split between them round-robin and
 * tick API calls raced on both. No todo is claimed twice, no projection write is made twice
 * (one POST per comment LoopX shows), and every outbox row is drained exactly once.
 * (Claims raced by 32 sessions: test/store/concurrency.test.ts.)
 */
describe.skipIf(!serverUrl)("fault: two replicas on one PostgreSQL", () => {
  let r: Replicas;
  let drop = async () => {};
  let alice: Octokit;
  beforeAll(async () => {
    const db = await freshDatabase(serverUrl ?? "");
    drop = db.drop;
    r = await startReplicas(db.url, 2);
    // Each tick's comment is among the writes that must land exactly once.
    r.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": "comments: sticky\n" }, "alice");
    alice = new Octokit({
      baseUrl: r.sandbox.url,
      auth: r.sandbox.createUserToken("alice"),
      request: { retries: 0 },
    });
  });
  afterAll(async () => {
    await r?.close();
    await drop();
  });

  it("claims once, writes once, drains once", async () => {
    const store = r.replicas[0]?.store;
    if (!store) throw new Error("no replica");
    const issues: number[] = [];
    for (let i = 0; i < GOALS; i++) {
      const { data } = await alice.rest.issues.create({
        ...repo,
        title: `Widget task ${i}`,
        body: "Do it.",
      });
      await alice.rest.issues.addLabels({ ...repo, issue_number: data.number, labels: ["loopx"] });
      await alice.rest.issues.createComment({
        ...repo,
        issue_number: data.number,
        body: "/loopx todo add First step",
      });
      issues.push(data.number);
    }
    await r.settle();
    expect(new Set(r.routed)).toEqual(new Set([0, 1]));

    // Each goal asked for twice at once, once on each replica, from two workflow runs.
    const asks = await Promise.all(
      issues.flatMap((issue, i) =>
        [0, 1].map(async (replica) => {
          const run = 9000 + i * 2 + replica;
          const answer = await r.post(
            replica,
            "/api/v1/ticks",
            { goal: issue },
            await r.token(run),
          );
          expect(answer.status, JSON.stringify(answer.body)).toBe(200);
          return { issue, run, replica, claim: AskResponse.parse(answer.body) };
        }),
      ),
    );
    for (const issue of issues) {
      // A goal with a live lease is leased elsewhere: the second ask waits.
      expect(asks.filter((a) => a.issue === issue && a.claim.run)).toHaveLength(1);
    }
    // Each result reported to the replica that did NOT claim it.
    for (const a of asks) {
      if (!a.claim.run) continue;
      const result = {
        todo: a.claim.todo,
        outcome: "progress",
        validation: { command: "npm test", exitCode: 0, passed: true, summary: "green" },
        evidence: [{ kind: "test", summary: "npm test green" }],
        handoff: { done: "Step one.", next: "Step two.", questions: [] },
        cost: { usd: 0.1, tokens: 100, runnerMinutes: 1 },
      };
      const sent = await r.post(
        1 - a.replica,
        `/api/v1/ticks/${a.claim.tickId}/result`,
        { leaseToken: a.claim.leaseToken, result },
        await r.token(a.run),
      );
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    }
    // Both schedulers and both outboxes at once.
    await Promise.all(r.replicas.map((x) => x.app.scheduler.tick()));
    for (const x of r.replicas) x.app.outbox.kick();
    await r.settle();
    await Promise.all(r.replicas.map((x) => x.app.scheduler.tick()));
    await r.settle();

    // No double claims: one tick per goal, on the todo it claimed.
    for (const issue of issues) {
      const state = await store.findGoalByIssue(r.repo.id, issue);
      expect(state?.ticks).toHaveLength(1);
      expect(state?.todos.filter((t) => t.claim !== null)).toHaveLength(0);
    }

    // No duplicate projection writes: each comment GitHub shows was POSTed once.
    let shown = 0;
    for (const issue of issues) {
      const comments = await alice.paginate(alice.rest.issues.listComments, {
        ...repo,
        issue_number: issue,
        per_page: 100,
      });
      const keys = comments
        .filter((c) => c.user?.login === "loopx[bot]")
        .map((c) => readKey(c.body ?? ""));
      expect(keys.filter((k) => k === "status")).toHaveLength(1);
      expect(keys.filter((k) => k?.startsWith("tick:"))).toHaveLength(1);
      expect(new Set(keys).size).toBe(keys.length);
      shown += keys.length;
    }
    const log = r.sandbox.requests();
    const posted = log.filter(
      (req) =>
        req.operationId === "issues/create-comment" &&
        req.status === 201 &&
        !req.path.includes("reactions"),
    );
    // alice's own comments are POSTs too (one per goal).
    expect(posted.length - GOALS).toBe(shown);

    // The outbox drained exactly once: every row done in one attempt, none dead.
    const rows = await dbOf(store).select().from(tables.outbox);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((row) => row.doneAt === null || row.deadAt !== null)).toEqual([]);
    expect(rows.filter((row) => row.attempts > 1)).toEqual([]);
  });
});
