import { AskResponse, addTodo, type GoalState, isLeaseLive } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: a running goal's `parallel` follows `.github/loopx.yml` on the default branch.
 * Raised, the next ask runs a tick beside the running one; lowered, running ticks go on and
 * no new one starts beyond the new number.
 */
describe("e2e: a change of parallel reaches a running goal", () => {
  let h: TickHarness;
  beforeAll(async () => {
    // Every ask reads the config afresh, as one after the cache's lifetime would.
    h = await startTickHarness({ api: { repoFactsTtlMs: 0 } });
  });
  afterAll(() => h.close());

  async function withTodo(state: GoalState, title: string, paths: string[]): Promise<GoalState> {
    const applied = await h.store.apply(state.goal.id, (s, now) =>
      addTodo(
        s,
        { title, paths },
        {
          actor: { kind: "human", login: "alice", trusted: true },
          now,
          newId: () => crypto.randomUUID(),
        },
      ),
    );
    if (!applied.ok) throw new Error(applied.refusal.message);
    return applied.state;
  }

  async function ask(runId: number, issue: number, slot?: string) {
    const token = await h.token(runId);
    const answer = await h.post(
      "/api/v1/ticks",
      { goal: issue, ...(slot ? { slot } : {}) },
      token ?? "",
    );
    expect(answer.status).toBe(200);
    return AskResponse.parse(answer.body);
  }

  const setParallel = (n: number) =>
    h.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": `parallel: ${n}\n` }, "alice");

  it("raised from 1 to 2 a second tick runs; lowered to 1 none starts and both go on", async () => {
    let goal = await h.startGoal("Split the work");
    goal = await withTodo(goal, "Rework the API", ["src/api/**"]);
    goal = await withTodo(goal, "Write the guide", ["docs/**"]);
    goal = await withTodo(goal, "Restyle the site", ["web/**"]);
    const issue = goal.goal.issue.number;
    expect(goal.goal.parallel).toBe(1);

    expect((await ask(5001, issue)).run).toBe(true);
    expect((await ask(5002, issue, "1")).run).toBe(false);

    setParallel(2);
    const beside = await ask(5003, issue, "1");
    expect(beside.run).toBe(true);
    expect((await h.store.loadGoal(goal.goal.id))?.goal.parallel).toBe(2);

    setParallel(1);
    const held = await ask(5004, issue, "2");
    expect(held.run).toBe(false);
    expect(held.route).toBe("wait");
    const after = await h.store.loadGoal(goal.goal.id);
    const now = await h.store.databaseNow();
    expect(after?.todos.filter((t) => isLeaseLive(t.claim, now))).toHaveLength(2);
    expect(after?.ticks.filter((t) => t.finishedAt === null)).toHaveLength(2);
    await h.settle();
  });
});
