import { AskResponse, addTodo } from "@loopx/core";
import { findManagedBlocks } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { botComments, personClient, playTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

const o = { owner: "acme", repo: "widgets" } as const;

/**
 * Scenario, on PostgreSQL with the real App over HTTP: a writer claims T1 with `/loopx claim
 * T1`, so the next tick works T2, the checklist says who holds T1, and LoopX says once why
 * it skipped it; `/loopx release T1` lets a later tick work T1. A todo whose sub-issue is
 * assigned to a bot is skipped until unassigned; an outsider's claim is refused and changes
 * nothing.
 */
describe("e2e: claims everyone sees and LoopX honours", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness({ onPostgres: true });
  });
  afterAll(() => h.close());

  const comment = async (login: string, issue: number, body: string) => {
    await personClient(h, login).rest.issues.createComment({ ...o, issue_number: issue, body });
    await h.settle();
  };
  const checklistLine = async (issue: number, key: string) => {
    const { data } = await personClient(h, "alice").rest.issues.get({ ...o, issue_number: issue });
    const body = data.body ?? "";
    const inner = findManagedBlocks(body)[0]?.inner ?? [];
    return inner.find((l) => l.includes(`loopx:todo=${key} -->`)) ?? "";
  };
  const skipNotices = (issue: number) =>
    botComments(h, issue).filter((c) => c.body.includes("LoopX skips T1"));

  it("a claimed todo is skipped, shown on the checklist, said once, and worked after its release", async () => {
    const goal = await h.startGoal("Speed up rendering", ["Cache layout", "Document it"]);
    const issue = goal.goal.issue.number;

    await comment("alice", issue, "/loopx claim T1");
    let state = await h.store.loadGoal(goal.goal.id);
    expect(state?.todos[0]?.heldBy).toMatchObject({ holder: "alice", via: "command" });
    expect(await checklistLine(issue, "T1")).toContain(
      "(claimed by alice; LoopX skips it, `/loopx release T1` frees it)",
    );

    const first = await playTick(h, issue, { "docs/rendering.md": "# Rendering\n" });
    expect(first.todo).toBe("T2");
    await h.settle();
    expect(skipNotices(issue)).toHaveLength(1);
    expect(skipNotices(issue)[0]?.body).toContain("works on T2 instead");

    // A second tick on T2 while T1 is still held: LoopX does not say it again.
    const second = await playTick(h, issue, { "docs/rendering.md": "# Rendering, v2\n" });
    expect(second.todo).toBe("T2");
    await h.settle();
    expect(skipNotices(issue)).toHaveLength(1);

    await comment("alice", issue, "/loopx release T1");
    state = await h.store.loadGoal(goal.goal.id);
    expect(state?.todos[0]?.heldBy).toBeNull();
    expect(await checklistLine(issue, "T1")).not.toContain("claimed by");
    const third = await playTick(h, issue, { "src/layout.ts": "export const cache = 1;\n" });
    expect(third.todo).toBe("T1");
  }, 240_000);

  it("a todo whose sub-issue is assigned to a bot is skipped until it is unassigned", async () => {
    const goal = await h.startGoal("Port the CLI");
    const r = await h.store.apply(goal.goal.id, (s, now) =>
      addTodo(
        s,
        { title: "Port the parser", asSubIssue: true },
        { actor: { kind: "human", login: "alice", trusted: true }, now, newId: h.app.deps.newId },
      ),
    );
    if (!r.ok) throw new Error(r.refusal.message);
    await h.store.apply(goal.goal.id, (s, now) =>
      addTodo(
        s,
        { title: "Port the printer" },
        { actor: { kind: "human", login: "alice", trusted: true }, now, newId: h.app.deps.newId },
      ),
    );
    await h.settle();
    const issue = goal.goal.issue.number;
    const sub = (await h.store.loadGoal(goal.goal.id))?.todos[0]?.subIssue;
    if (!sub) throw new Error("T1 has no sub-issue");

    h.sandbox.createUser("Copilot", { type: "Bot" });
    await personClient(h, "alice").rest.issues.update({
      ...o,
      issue_number: sub.number,
      assignees: ["Copilot"],
    });
    await h.settle();
    expect(await checklistLine(issue, "T1")).toContain(
      `(assigned to Copilot on #${sub.number}; LoopX skips it, unassign to free it)`,
    );
    const worked = await playTick(h, issue, { "src/printer.ts": "export {};\n" });
    expect(worked.todo).toBe("T2");
    await h.settle();
    expect(botComments(h, issue).filter((c) => c.body.includes("LoopX skips T1"))).toHaveLength(1);

    await personClient(h, "alice").rest.issues.update({
      ...o,
      issue_number: sub.number,
      assignees: [],
    });
    await h.settle();
    expect((await h.store.loadGoal(goal.goal.id))?.todos[0]?.heldBy).toBeNull();
    const next = await playTick(h, issue, { "src/parser.ts": "export {};\n" });
    expect(next.todo).toBe("T1");
  }, 240_000);

  it("an outsider's /loopx claim is refused with a reason and holds nothing", async () => {
    const goal = await h.startGoal("Tidy the docs", ["Fix typos"]);
    const issue = goal.goal.issue.number;
    // bob can read the repository and comment, but not write.
    const bob = h.sandbox.createUser("bob");
    h.sandbox.repoByFullName("acme/widgets").collaborators.set(bob.id, "read");
    await comment("bob", issue, "/loopx claim T1");
    const state = await h.store.loadGoal(goal.goal.id);
    expect(state?.todos[0]?.heldBy).toBeNull();
    const replies = botComments(h, issue).filter((c) => c.body.includes("need write access"));
    expect(replies).toHaveLength(1);
    expect(await checklistLine(issue, "T1")).not.toContain("claimed by");
    const ask = AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: issue }, await h.token(9901))).body,
    );
    expect(ask).toMatchObject({ run: true, todo: "T1" });
  }, 120_000);
});
