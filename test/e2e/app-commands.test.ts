import { and, dbOf, eq, tables } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import {
  botComments,
  comment,
  dispatchesSince,
  goal,
  reactions,
  replyTo,
  startGoal,
} from "../support/goal-steps.ts";

/**
 * Scenario: on a goal issue, a writer types every `/loopx` command. Each is acknowledged
 * (👀 on receipt, 👍 once applied) and changes exactly what it says; a refusal is a reply.
 */
describe("e2e: /loopx commands from a writer", () => {
  let h: Harness;
  let number: number;
  let goalId: string;
  beforeAll(async () => {
    h = await startHarness();
    ({ number, goalId } = await startGoal(h, "alice"));
  });
  afterAll(() => h.close());

  const run = async (body: string, login = "wendy") => {
    const id = await comment(h, login, number, body);
    return { id, state: await goal(h, goalId), seen: await reactions(h, id) };
  };
  const applied = ["+1", "eyes"];
  const eventsOf = async (type: string) =>
    dbOf(h.store)
      .select()
      .from(tables.events)
      .where(and(eq(tables.events.goalId, goalId), eq(tables.events.type, type)));

  it("status re-renders the status comment and records who asked", async () => {
    const { id, seen } = await run("/loopx status");
    expect(seen).toEqual(applied);
    const asked = await eventsOf("goal.status_requested");
    expect(asked).toHaveLength(1);
    expect(asked[0]?.data).toMatchObject({ commentId: String(id) });
    expect(asked[0]?.actor).toEqual({ kind: "human", login: "wendy", trusted: true });
    expect((await botComments(h, number)).filter((c) => c.key === "status")).toHaveLength(1);
  });

  it("todo add / todo add --issue / todo drop edit the plan and the checklist", async () => {
    let r = await run("/loopx todo add Write the docs");
    expect(r.seen).toEqual(applied);
    expect(r.state.todos.map((t) => [t.key, t.title, t.status])).toEqual([
      ["T1", "Write the docs", "ready"],
    ]);
    const issue = await h.as("alice").rest.issues.get({
      owner: "acme",
      repo: "widgets",
      issue_number: number,
    });
    expect(issue.data.body).toContain("Write the docs");

    r = await run("/loopx todo add Split the parser --issue");
    expect(r.state.todos.find((t) => t.key === "T2")?.title).toBe("Split the parser");
    const outbox = await h.store.outboxForGoal(goalId);
    expect(outbox.some((o) => o.effect.kind === "create_sub_issue" && o.effect.todo === "T2")).toBe(
      true,
    );

    r = await run("/loopx todo drop T1");
    expect(r.seen).toEqual(applied);
    expect(r.state.todos.find((t) => t.key === "T1")?.status).toBe("dropped");
  });

  it("replan and harness change what the next tick does", async () => {
    let r = await run("/loopx replan");
    expect(r.seen).toEqual(applied);
    expect(r.state.goal.replanRequested).toBe(true);
    r = await run("/loopx harness codex");
    expect(r.seen).toEqual(applied);
    expect(r.state.goal.harness).toBe("codex");
  });

  it("pause, run while paused (refused with a reply), resume, run (one dispatch)", async () => {
    let r = await run("/loopx pause");
    expect(r.seen).toEqual(applied);
    expect(r.state.goal.status).toBe("paused");

    r = await run("/loopx run");
    expect(r.seen).toEqual(["eyes"]);
    expect((await replyTo(h, number, r.id))?.body).toContain("The goal is paused");

    r = await run("/loopx resume");
    expect(r.seen).toEqual(applied);
    expect(r.state.goal.status).toBe("active");

    const before = h.sandbox.requests().length;
    r = await run("/loopx run");
    expect(r.seen).toEqual(applied);
    expect(dispatchesSince(h, before)).toBe(1);
    expect(await eventsOf("goal.woken")).toHaveLength(1);
  });

  it("link #N records a pull request with its head as GitHub has it; a missing PR is refused", async () => {
    const sha = h.sandbox.push("acme/widgets", "feature/x", { "x.txt": "x\n" }, "wendy");
    const pr = await h.as("wendy").rest.pulls.create({
      owner: "acme",
      repo: "widgets",
      head: "feature/x",
      base: "main",
      title: "Outside work",
    });
    let r = await run(`/loopx link #${pr.data.number}`);
    expect(r.seen).toEqual(applied);
    // Linked with the head as GitHub has it; the PR monitor keeps its own fields beside these.
    expect(r.state.pullRequests).toEqual([
      expect.objectContaining({
        number: pr.data.number,
        todo: null,
        headRef: "feature/x",
        headSha: sha,
        state: "open",
      }),
    ]);

    r = await run("/loopx link #999");
    expect(r.seen).toEqual(["eyes"]);
    expect((await replyTo(h, number, r.id))?.body).toContain("no pull request #999");
    expect(r.state.pullRequests).toHaveLength(1);
  });

  it("unknown and malformed commands get the help text; nothing changes", async () => {
    const version = (await goal(h, goalId)).goal.version;
    let r = await run("/loopx frobnicate");
    expect(r.state.goal.version).toBe(version);
    let reply = await replyTo(h, number, r.id);
    expect(reply?.body).toContain("is not a LoopX command");
    expect(reply?.body).toContain("LoopX commands (first line of a new comment");
    expect(reply?.body).toContain("/loopx approve G2 [note]");

    r = await run("/loopx reject G1");
    reply = await replyTo(h, number, r.id);
    expect(reply?.body).toContain("Rejecting needs a reason");
    expect(r.state.goal.version).toBe(version);
  });

  it("stop ends the goal", async () => {
    const r = await run("/loopx stop");
    expect(r.seen).toEqual(applied);
    expect(r.state.goal.status).toBe("stopped");
  });
});
