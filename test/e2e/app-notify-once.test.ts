import { randomUUID } from "node:crypto";
import { type Actor, approveGate, openGate } from "@loopx/core";
import { dbOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { botComments, openTestGate, startGoal } from "../support/goal-steps.ts";

/**
 * Scenario: LoopX needs a person — a gate opens. It posts ONE new comment (an edit notifies
 * nobody) mentioning the goal's owners who have write access when it posts: the labeller and
 * the config's owners, minus those without write. A retry or a crash after the post never
 * posts it again; a second gate is a new occasion and is told again.
 */
const APP: Actor = { kind: "app" };
const ALICE: Actor = { kind: "human", login: "alice", trusted: true };

describe("e2e: people are told once per occasion", () => {
  let h: Harness;
  let number: number;
  let goalId: string;
  beforeAll(async () => {
    h = await startHarness({
      onPostgres: true,
      files: { ".github/loopx.yml": "owners: [wendy, rita]\n" },
    });
    ({ number, goalId } = await startGoal(h, "alice"));
  });
  afterAll(() => h.close());

  const notices = async () =>
    (await botComments(h, number)).filter((c) => c.key?.startsWith("notify:"));
  const mentions = (body: string) => [...body.matchAll(/@([a-z0-9-]+)/g)].map((m) => m[1]);

  it("a gate opening posts one comment mentioning the owners with write access", async () => {
    const from = h.sandbox.requests().length;
    await openTestGate(h, goalId, { question: "May I deploy to staging?", scopes: ["deploy"] });
    // Nothing was posted for this occasion before: the comments are not listed first.
    const listed = h.sandbox
      .requests()
      .slice(from)
      .filter((r) => r.by?.startsWith("installation:") && r.operationId === "issues/list-comments");
    expect(listed).toEqual([]);
    const told = await notices();
    expect(told.map((c) => c.key)).toEqual(["notify:gate:G1"]);
    // rita is an owner by config but can only read: she is not pinged.
    expect(mentions(told[0]?.body ?? "")).toEqual(["alice", "wendy"]);
    expect(told[0]?.body).toContain("`/loopx approve G1`");
    // The gate's own comment still names it, and pings nobody.
    const gate = (await botComments(h, number)).find((c) => c.key === "gate:G1:opened");
    expect(mentions(gate?.body ?? "")).toEqual([]);
  });

  it("a retry after the post, as after a crash, posts nothing new", async () => {
    await dbOf(h.store).execute(
      sql`UPDATE outbox SET done_at = NULL, next_attempt_at = now() WHERE key = 'notify:gate:G1'`,
    );
    h.app.outbox.kick();
    await h.settle();
    expect((await notices()).map((c) => c.key)).toEqual(["notify:gate:G1"]);
    // The post's answer lost (no comment id recorded): the retry finds the comment by its key.
    await dbOf(h.store).execute(
      sql`UPDATE projections SET github_id = NULL WHERE target = 'comment:notify:gate:G1'`,
    );
    await dbOf(h.store).execute(
      sql`UPDATE outbox SET done_at = NULL, next_attempt_at = now() WHERE key = 'notify:gate:G1'`,
    );
    h.app.outbox.kick();
    await h.settle();
    expect((await notices()).map((c) => c.key)).toEqual(["notify:gate:G1"]);
  });

  it("a second gate is a new occasion: told again, to who has write access now", async () => {
    const wendy = h.sandbox.store.userByLogin("wendy");
    if (!wendy) throw new Error("no wendy");
    h.sandbox.repoByFullName("acme/widgets").collaborators.set(wendy.id, "read");
    await openTestGate(h, goalId, { question: "May I touch CI?", scopes: ["write:.github"] });
    const told = await notices();
    expect(told.map((c) => c.key)).toEqual(["notify:gate:G1", "notify:gate:G2"]);
    expect(mentions(told[1]?.body ?? "")).toEqual(["alice"]);
  });

  it("a gate settled before its notice is posted is not told", async () => {
    const by = (actor: Actor) => ({ actor, now: new Date(), newId: randomUUID });
    // Both committed before the outbox runs: the notice finds the gate already answered.
    const opened = await h.store.apply(goalId, (s, now) =>
      openGate(s, { question: "May I publish?", scopes: ["publish"] }, { ...by(APP), now }),
    );
    expect(opened.ok).toBe(true);
    const approved = await h.store.apply(goalId, (s, now) =>
      approveGate(s, { gate: "G3" }, { ...by(ALICE), now }),
    );
    expect(approved.ok).toBe(true);
    h.app.outbox.kick();
    await h.settle();
    expect((await notices()).map((c) => c.key)).toEqual(["notify:gate:G1", "notify:gate:G2"]);
  });
});
