import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import {
  botComments,
  comment,
  goal,
  openTestGate,
  replyTo,
  startGoal,
} from "../support/goal-steps.ts";

/**
 * Scenario: a writer asks what a command would do before doing it. `--dry-run` at the end of
 * the command answers with what would change (and the receipt it would leave) and changes
 * nothing; the same command without it then does exactly that. A dry run by someone without
 * write access is their command like any other: refused, no preview.
 */
describe("e2e: /loopx <command> --dry-run", () => {
  let h: Harness;
  let number = 0;
  let goalId = "";
  beforeAll(async () => {
    h = await startHarness();
    ({ number, goalId } = await startGoal(h, "alice", "Cache the widgets"));
    await openTestGate(h, goalId, { question: "May I deploy?", scopes: ["deploy"] });
  });
  afterAll(() => h.close());

  it("a todo added on a dry run is only described", async () => {
    const before = await goal(h, goalId);
    const id = await comment(h, "alice", number, "/loopx todo add Pick a cache key --dry-run");
    const reply = await replyTo(h, number, id);
    expect(reply?.body).toContain("Dry run, nothing changed.");
    expect(reply?.body).toContain(`add T${before.goal.counters.todo} “Pick a cache key”`);
    const after = await goal(h, goalId);
    expect(after.todos).toEqual(before.todos);
    expect(after.goal.version).toBe(before.goal.version);
  });

  it("an approval's dry run shows its receipt; the approval itself then leaves it", async () => {
    const id = await comment(h, "alice", number, "/loopx approve G1 --dry-run");
    const preview = (await replyTo(h, number, id))?.body ?? "";
    expect(preview).toContain("leave the receipt “alice approved G1 (deploy)");
    expect((await goal(h, goalId)).gates.find((g) => g.key === "G1")?.status).toBe("open");

    await comment(h, "alice", number, "/loopx approve G1");
    expect((await goal(h, goalId)).gates.find((g) => g.key === "G1")?.status).toBe("approved");
    const receipt = (await botComments(h, number)).find((c) =>
      c.key?.startsWith("receipt:gate:G1"),
    );
    expect(receipt?.body).toContain("approved G1");
  });

  it("a reader's dry run is refused like their command, with no preview", async () => {
    const before = await goal(h, goalId);
    const id = await comment(h, "rita", number, "/loopx stop --dry-run");
    const reply = await replyTo(h, number, id);
    expect(reply?.body).toContain("need write access");
    expect(reply?.body).not.toContain("Dry run");
    expect((await goal(h, goalId)).goal.version).toBe(before.goal.version);
  });

  it("a start's dry run on an issue without a goal starts none", async () => {
    const { data } = await h
      .as("alice")
      .rest.issues.create({ owner: "acme", repo: "widgets", title: "Speed up parsing", body: "" });
    const id = await comment(h, "alice", data.number, "/loopx start --dry-run");
    const reply = await replyTo(h, data.number, id);
    expect(reply?.body).toContain("- start a goal on this issue: “Speed up parsing”");
    expect(await h.store.findGoalByIssue(h.repo.id, data.number)).toBeNull();
  });
});
