/**
 * The transition that ends a goal decides on the whole aggregate: its final report lists
 * what was delivered, and a windowed load carries only the newest finished todos. What the
 * transition saw is recorded from inside it, against the window's own bound.
 */
import { dropTodo, type GoalState, type TransitionContext } from "@loopx/core";
import { DEFAULT_WINDOW, openStore, type Store } from "@loopx/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedPglite } from "../support/databases.ts";
import { kernelCreate } from "./kernel-fixtures.ts";

const BOB = { kind: "human", login: "bob", trusted: true } as const;
const ctx = (now: Date): TransitionContext => ({ actor: BOB, now, newId: crypto.randomUUID });
const recent = DEFAULT_WINDOW.recentFinished ?? 0;
const TODOS = recent + 15;

describe("a transition that finishes the goal sees every todo (PGlite)", () => {
  let store: Store;
  let goal: GoalState;
  beforeAll(async () => {
    store = await openStore({ pglite: await sharedPglite() });
    await store.migrate();
    const created = await store.createGoal(kernelCreate({ todos: TODOS }));
    if (!created.ok) throw new Error(created.refusal.message);
    goal = created.state;
    // All but the last are finished, more of them than the window keeps.
    for (const t of goal.todos.slice(0, -1)) {
      const r = await store.apply(goal.goal.id, (s, now) => dropTodo(s, { todo: t.key }, ctx(now)));
      if (!r.ok) throw new Error(r.refusal.message);
    }
  });
  afterAll(() => store.close());

  it("a transition that leaves the goal open sees the window only", async () => {
    let saw = -1;
    const r = await store.apply(goal.goal.id, (s) => {
      saw = s.todos.length;
      return { ok: true, state: s, events: [], effects: [] };
    });
    expect(r.ok).toBe(true);
    expect(recent).toBeGreaterThan(0);
    expect(saw).toBeLessThan(TODOS);
  });

  it("a transition that moves it to done is rerun on all of them", async () => {
    const seen: number[] = [];
    const r = await store.apply(goal.goal.id, (s) => {
      seen.push(s.todos.length);
      return {
        ok: true,
        state: { ...s, goal: { ...s.goal, status: "done" } },
        events: [],
        effects: [],
      };
    });
    expect(r.ok).toBe(true);
    expect(seen.at(-1)).toBe(TODOS);
    expect(seen[0]).toBeLessThan(TODOS);
  });
});
