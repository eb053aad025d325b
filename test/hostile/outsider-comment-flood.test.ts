import { WAITING_OUTSIDER_NOTES } from "@loopx/core";
import { dbOf, rowsOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { comment, goal, startGoal } from "../support/goal-steps.ts";

/**
 * Someone who may read the repository, and so comment on its issues, floods a goal's issue
 * while no slice runs to read their comments. Each plain comment is a note waiting for the
 * next slice, and every transition of the goal loads the waiting notes: kept without bound,
 * the flood would make the whole goal dearer, comment by comment. Only a few are kept; the
 * rest change nothing and are answered with nothing, so the flood costs the App no writes.
 */
describe("hostile: an outsider floods a goal's issue with comments", () => {
  const { perPerson } = WAITING_OUTSIDER_NOTES;
  const flood = perPerson + 2;
  let h: Harness;
  let number: number;
  let goalId: string;
  beforeAll(async () => {
    h = await startHarness();
    ({ number, goalId } = await startGoal(h, "alice"));
  });
  afterAll(() => h.close());

  it("keeps the outsider's share of notes, refuses the rest, and writes nothing for them", async () => {
    const from = h.sandbox.requests().length;
    for (let i = 0; i < flood; i++) await comment(h, "rita", number, `spam ${i}`);

    const kept = (await goal(h, goalId)).notes.filter((n) => n.from === "rita");
    expect(kept.map((n) => [n.text, n.trusted])).toEqual(
      Array.from({ length: perPerson }, (_, i) => [`spam ${i}`, false]),
    );

    const outcomes = rowsOf(
      await dbOf(h.store).execute(sql`
        SELECT outcome FROM inbox
         WHERE event = 'issue_comment' AND payload->'comment'->'user'->>'login' = 'rita'
         ORDER BY received_at`),
    ).map((r) => z.object({ outcome: z.string().nullable() }).parse(r).outcome);
    expect(outcomes).toEqual([
      ...Array(perPerson).fill("applied"),
      ...Array(flood - perPerson).fill("refused:invalid_state"),
    ]);

    // Nothing posted in answer: a reply per refused comment would let the flood spend the
    // App's content budget.
    const created = h.sandbox
      .requests()
      .slice(from)
      .filter((r) => r.by?.startsWith("installation:") && r.contentCreating);
    expect(created).toEqual([]);
  });

  it("still keeps a writer's note after the flood", async () => {
    await comment(h, "wendy", number, "Prefer the streaming parser.");
    const last = (await goal(h, goalId)).notes.at(-1);
    expect(last).toMatchObject({ from: "wendy", trusted: true, deliveredTo: null });
  });
});
