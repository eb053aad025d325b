import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import {
  comment,
  goal,
  openTestGate,
  reactions,
  replyTo,
  startGoal,
} from "../support/goal-steps.ts";

const repo = { owner: "acme", repo: "widgets" } as const;

/**
 * Scenario: what must NOT act. A command quoted or in code, a command added by editing a
 * comment, and one comment delivered twice (same delivery id, and a new delivery id).
 */
describe("e2e: a command acts once, only when typed as one", () => {
  let h: Harness;
  let number: number;
  let goalId: string;
  beforeAll(async () => {
    h = await startHarness();
    ({ number, goalId } = await startGoal(h, "alice"));
    await openTestGate(h, goalId, { question: "May I deploy?", scopes: ["deploy"] });
  });
  afterAll(() => h.close());

  it('a quoted "reply `/loopx approve G1`" and a command in code do not approve', async () => {
    for (const body of [
      "> reply `/loopx approve G1` to go on",
      "To go on, reply `/loopx approve G1`.",
      "```\n/loopx approve G1\n```",
      "Looks good.\n/loopx approve G1",
    ]) {
      const id = await comment(h, "alice", number, body);
      expect(await reactions(h, id), body).toEqual([]);
      expect(await replyTo(h, number, id), body).toBeNull();
    }
    const state = await goal(h, goalId);
    expect(state.gates[0]?.status).toBe("open");
    // They are conversation: a writer's comments reach the next slice as notes.
    expect(state.notes).toHaveLength(4);
  });

  it("a command added by editing a comment never acts", async () => {
    const id = await comment(h, "alice", number, "Thinking about it.");
    const notes = (await goal(h, goalId)).notes.length;
    await h
      .as("alice")
      .rest.issues.updateComment({ ...repo, comment_id: id, body: "/loopx approve G1" });
    await h.settle();
    const state = await goal(h, goalId);
    expect(state.gates[0]?.status).toBe("open");
    expect(state.notes).toHaveLength(notes);
    expect(await reactions(h, id)).toEqual([]);
  });

  it("the same comment delivered twice applies once (same delivery id, then a new one)", async () => {
    h.sandbox.faults.webhook({ mode: "duplicate", event: "issue_comment.created", times: 1 });
    const id = await comment(h, "alice", number, "/loopx todo add Only once");
    let state = await goal(h, goalId);
    expect(state.todos.map((t) => t.title)).toEqual(["Only once"]);
    const sent = h.sandbox
      .deliveries()
      .filter((d) => d.event === "issue_comment" && d.action === "created");
    const original = sent[sent.length - 1];
    expect(original?.payload).toMatchObject({ comment: { id } });

    // A replay under another delivery id (a reconciler, a second hook) finds the comment applied.
    await h.store.recordDelivery({
      deliveryId: randomUUID(),
      event: "issue_comment",
      action: "created",
      installationId: state.goal.installationId,
      payload: original?.payload,
    });
    h.app.inbox.kick();
    await h.settle();
    state = await goal(h, goalId);
    expect(state.todos.map((t) => t.title)).toEqual(["Only once"]);
    expect(await reactions(h, id)).toEqual(["+1", "eyes"]);
  });
});
