import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import {
  botComments,
  comment,
  dispatchesSince,
  goal,
  openTestGate,
  reactions,
  replyTo,
  startGoal,
} from "../support/goal-steps.ts";

/**
 * Scenario: gates decided by comment. The gate comment names the command; an authorized
 * `/loopx approve G#` resolves exactly that gate, posts a receipt and wakes the loop.
 */
describe("e2e: gates approved and rejected by comment", () => {
  let h: Harness;
  let number: number;
  let goalId: string;
  beforeAll(async () => {
    h = await startHarness();
    ({ number, goalId } = await startGoal(h, "alice"));
    await comment(h, "alice", number, "/loopx todo add Deploy to staging");
    await openTestGate(h, goalId, { question: "May I deploy to staging?", scopes: ["deploy"] });
    await openTestGate(h, goalId, { question: "May I touch CI?", scopes: ["write:.github"] });
  });
  afterAll(() => h.close());

  it("each gate gets a comment naming it and the exact command", async () => {
    const gates = (await botComments(h, number)).filter((c) => c.key?.startsWith("gate:"));
    expect(gates.map((c) => c.key)).toEqual(["gate:G1:opened", "gate:G2:opened"]);
    expect(gates[0]?.body).toContain("`/loopx approve G1`");
  });

  it("approve G1 resolves exactly G1, with a receipt and a dispatch", async () => {
    const before = h.sandbox.requests().length;
    const id = await comment(h, "wendy", number, "/loopx approve G1 ship it");
    expect(await reactions(h, id)).toEqual(["+1", "eyes"]);
    const state = await goal(h, goalId);
    expect(state.gates.map((g) => [g.key, g.status, g.resolvedBy, g.note])).toEqual([
      ["G1", "approved", "wendy", "ship it"],
      ["G2", "open", null, null],
    ]);
    const receipt = (await botComments(h, number)).find(
      (c) => c.key === "receipt:gate:G1:approved",
    );
    expect(receipt?.body).toContain("approved G1 (deploy)");
    expect(dispatchesSince(h, before)).toBe(1);
  });

  it("approving it again is refused with a reply; so is a gate that does not exist", async () => {
    let id = await comment(h, "alice", number, "/loopx approve G1");
    expect(await reactions(h, id)).toEqual(["eyes"]);
    expect((await replyTo(h, number, id))?.body).toContain("G1 is already approved");
    id = await comment(h, "alice", number, "/loopx approve G9");
    expect((await replyTo(h, number, id))?.body).toContain("There is no gate G9 (open gates: G2)");
  });

  it("reject G2 with a reason; a triage user cannot", async () => {
    let id = await comment(h, "tom", number, "/loopx reject G2 no");
    expect((await replyTo(h, number, id))?.body).toContain("need write access");
    expect((await goal(h, goalId)).gates[1]?.status).toBe("open");

    id = await comment(h, "alice", number, "/loopx reject G2 not this week");
    expect(await reactions(h, id)).toEqual(["+1", "eyes"]);
    expect((await goal(h, goalId)).gates[1]).toMatchObject({
      status: "rejected",
      resolvedBy: "alice",
      note: "not this week",
    });
    const receipt = (await botComments(h, number)).find(
      (c) => c.key === "receipt:gate:G2:rejected",
    );
    expect(receipt?.body).toContain("not this week");
  });
});
