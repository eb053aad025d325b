/**
 * A request loads its goal's aggregate once: the App reads the goal (to authorize, to build
 * the input), then hands that state to `apply` as `loaded`, and the store reuses it when the
 * locked row is still at its version. Aggregate reads are counted where they happen: a meter
 * on the store's PGlite, inside transactions too, counting each aggregate statement that
 * returned a row.
 */
import { addTodo, type GoalState, type TransitionContext } from "@loopx/core";
import { openStore, type Store } from "@loopx/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedPglite } from "../support/databases.ts";
import { meteredPglite } from "../support/metered-pglite.ts";
import { kernelCreate } from "./kernel-fixtures.ts";

const BOB = { kind: "human", login: "bob", trusted: true } as const;
const ctx = (now: Date): TransitionContext => ({ actor: BOB, now, newId: crypto.randomUUID });

describe("one aggregate load per request (PGlite)", () => {
  const seen = { loads: 0 };
  let store: Store;
  let goal: GoalState;
  beforeAll(async () => {
    store = await openStore({ pglite: meteredPglite(await sharedPglite(), seen) });
    await store.migrate();
    const created = await store.createGoal(kernelCreate({ todos: 2 }));
    if (!created.ok) throw new Error(created.refusal.message);
    goal = created.state;
  });
  afterAll(() => store.close());

  it("counts a plain load and a transition without a loaded state as one read each", async () => {
    seen.loads = 0;
    await store.loadGoal(goal.goal.id);
    expect(seen.loads).toBe(1);
    const applied = await store.apply(goal.goal.id, (s, now) =>
      addTodo(s, { title: "a" }, ctx(now)),
    );
    expect(applied.ok).toBe(true);
    expect(seen.loads).toBe(2);
  });

  it("reads the goal once when the request's loaded state is still current", async () => {
    seen.loads = 0;
    const found = await store.findGoalByIssue(goal.goal.repo.id, goal.goal.issue.number);
    if (!found) throw new Error("goal not found");
    let given: GoalState | null = null;
    const applied = await store.apply(
      goal.goal.id,
      (s, now) => {
        given = s;
        return addTodo(s, { title: "b" }, ctx(now));
      },
      { loaded: found },
    );
    expect(applied.ok).toBe(true);
    expect(given).toBe(found);
    expect(seen.loads).toBe(1);
  });

  it("reads afresh when the goal changed after the request loaded it", async () => {
    const stale = await store.loadGoal(goal.goal.id);
    if (!stale) throw new Error("goal not found");
    // Someone else's transition lands between the request's read and its apply.
    const other = await store.apply(goal.goal.id, (s, now) => addTodo(s, { title: "c" }, ctx(now)));
    if (!other.ok) throw new Error(other.refusal.message);
    seen.loads = 0;
    let sawVersion = -1;
    const applied = await store.apply(
      goal.goal.id,
      (s, now) => {
        sawVersion = s.goal.version;
        return addTodo(s, { title: "d" }, ctx(now));
      },
      { loaded: stale },
    );
    if (!applied.ok) throw new Error(applied.refusal.message);
    expect(sawVersion).toBe(other.state.goal.version);
    expect(seen.loads).toBe(1);
    // The todo the other transition added survived: nothing was written from the stale state.
    const after = await store.loadGoal(goal.goal.id);
    expect(after?.todos.map((t) => t.title)).toEqual(expect.arrayContaining(["c", "d"]));
  });
});
