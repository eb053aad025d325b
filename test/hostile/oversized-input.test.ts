import { BLOCK_BEGIN, GITHUB_BODY_LIMIT, parseChecklist } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { comment, goal, replyTo } from "../support/goal-steps.ts";
import { keyedComments, label } from "../support/ops-steps.ts";

/**
 * Bodies and comments as large as GitHub allows (65,536 characters). A goal issue that full
 * still gets its checklist, within the limit; an oversized command is refused with a reply
 * saying the limit, and changes nothing; an oversized conversation is ignored.
 */
const repo = { owner: "acme", repo: "widgets" } as const;

describe("hostile: oversized issue bodies and comments", () => {
  let h: Harness;
  let number: number;
  let goalId: string;
  beforeAll(async () => {
    h = await startHarness();
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${i}: ${"w".repeat(40)}`).join("\n");
    const body = lines.slice(0, GITHUB_BODY_LIMIT);
    expect(body).toHaveLength(GITHUB_BODY_LIMIT);
    const { data } = await h.as("alice").rest.issues.create({ ...repo, title: "Huge", body });
    number = data.number;
    await label(h, "alice", number);
    await h.settle();
    const state = await h.store.findGoalByIssue(h.repo.id, number);
    if (!state) throw new Error("no goal for the huge issue");
    goalId = state.goal.id;
  });
  afterAll(() => h.close());

  it("a full issue body still gets its checklist, and stays within the limit", async () => {
    await comment(h, "alice", number, "/loopx todo add Split the huge issue");
    const { data } = await h.as("alice").rest.issues.get({ ...repo, issue_number: number });
    const body = data.body ?? "";
    expect(body.length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
    expect(body).toContain(BLOCK_BEGIN);
    expect(parseChecklist(body).map((i) => i.todo)).toEqual(["T1"]);
    expect(await keyedComments(h, number, "status")).toHaveLength(1);
  });

  async function refusedWithReply(body: string, says: string) {
    const before = await goal(h, goalId);
    const id = await comment(h, "wendy", number, body);
    const reply = await replyTo(h, number, id);
    expect(reply?.body).toContain(says);
    expect((reply?.body ?? "").length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
    const after = await goal(h, goalId);
    expect(after.goal.version).toBe(before.goal.version);
    expect(after.todos).toEqual(before.todos);
  }

  it("a todo title over 256 characters, in a comment as large as GitHub allows", async () => {
    const first = `/loopx todo add ${"t".repeat(300)}`;
    const body = `${first}\n${"x".repeat(GITHUB_BODY_LIMIT - first.length - 1)}`;
    await refusedWithReply(body, "at most 256 characters");
  });

  it("a command line over 4,000 characters", async () => {
    await refusedWithReply(
      `/loopx approve G1 ${"n".repeat(GITHUB_BODY_LIMIT - 20)}`,
      "at most 4000",
    );
  });

  it("a writer's conversation as large as GitHub allows becomes one bounded note, no reply", async () => {
    const before = await goal(h, goalId);
    const id = await comment(h, "wendy", number, "z".repeat(GITHUB_BODY_LIMIT));
    expect(await replyTo(h, number, id)).toBeNull();
    const after = await goal(h, goalId);
    const added = after.notes.filter((n) => !before.notes.some((b) => b.id === n.id));
    expect(added).toHaveLength(1);
    expect(added[0]?.text.length).toBeLessThanOrEqual(4000);
    expect(after.todos).toEqual(before.todos);
    expect((await h.app.ops.snapshot()).inbox.count).toBe(0);
  });

  it("an outsider's conversation as large as GitHub allows changes nothing", async () => {
    const before = await goal(h, goalId);
    const id = await comment(h, "rita", number, "q".repeat(GITHUB_BODY_LIMIT));
    expect(await replyTo(h, number, id)).toBeNull();
    const after = await goal(h, goalId);
    expect(after.todos).toEqual(before.todos);
    expect(after.notes.filter((n) => n.from === "rita").every((n) => !n.trusted)).toBe(true);
  });
});
