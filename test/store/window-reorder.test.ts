/**
 * Moving a todo renumbers the whole plan (positions 1..n, in plan order), and `position: N`
 * means the Nth place among every todo. A windowed aggregate holds only some finished todos,
 * so the store must decide a renumbering on the whole goal: the expected order is the
 * kernel's own answer on a whole load, and positions stay distinct.
 */
import {
  dropTodo,
  type GoalState,
  reorderTodo,
  type TransitionContext,
  type TransitionResult,
} from "@loopx/core";
import { DEFAULT_WINDOW, FULL_WINDOW, openStore, type Store } from "@loopx/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedPglite } from "../support/databases.ts";
import { kernelCreate } from "./kernel-fixtures.ts";

const BOB = { kind: "human", login: "bob", trusted: true } as const;
const ctx = (now: Date): TransitionContext => ({ actor: BOB, now, newId: crypto.randomUUID });
const recent = DEFAULT_WINDOW.recentFinished ?? 0;
/** More finished todos than the window keeps, then a few open ones after them. */
const FINISHED = recent + 12;
const OPEN = 4;

const planOrder = (s: GoalState) =>
  [...s.todos]
    .sort((a, b) => a.position - b.position || a.key.localeCompare(b.key, "en", { numeric: true }))
    .map((t) => t.key);

describe("reordering a todo on a goal whose finished todos lie outside the window (PGlite)", () => {
  let store: Store;
  let goalId: string;
  beforeAll(async () => {
    store = await openStore({ pglite: await sharedPglite() });
    await store.migrate();
    const created = await store.createGoal(kernelCreate({ todos: FINISHED + OPEN }));
    if (!created.ok) throw new Error(created.refusal.message);
    goalId = created.state.goal.id;
    for (const t of created.state.todos.slice(0, FINISHED)) {
      const r = await store.apply(goalId, (s, now) => dropTodo(s, { todo: t.key }, ctx(now)));
      if (!r.ok) throw new Error(r.refusal.message);
    }
  });
  afterAll(() => store.close());

  async function expectLikeWholeLoad(move: (s: GoalState, now: Date) => TransitionResult) {
    const whole = await store.loadGoal(goalId, FULL_WINDOW);
    if (!whole) throw new Error("goal not found");
    const windowed = await store.loadGoal(goalId);
    // The premise: the default window leaves some finished todos out.
    expect(windowed?.todos.length).toBeLessThan(whole.todos.length);
    const expected = move(whole, new Date());
    if (!expected.ok) throw new Error(expected.refusal.message);
    const applied = await store.apply(goalId, move);
    expect(applied.ok).toBe(true);
    const after = await store.loadGoal(goalId, FULL_WINDOW);
    if (!after) throw new Error("goal not found");
    expect(planOrder(after)).toEqual(planOrder(expected.state));
    const positions = after.todos.map((t) => t.position);
    expect(new Set(positions).size).toBe(positions.length);
  }

  it("moves the last open todo to the front of the whole plan", async () => {
    const last = `T${FINISHED + OPEN}`;
    await expectLikeWholeLoad((s, now) => reorderTodo(s, { todo: last, position: 0 }, ctx(now)));
  });

  it("puts a todo at a numbered place counted among every todo", async () => {
    const first = `T${FINISHED + 1}`;
    await expectLikeWholeLoad((s, now) => reorderTodo(s, { todo: first, position: 5 }, ctx(now)));
  });

  it("moves an open todo before a finished one the window left out", async () => {
    const open = `T${FINISHED + 2}`;
    await expectLikeWholeLoad((s, now) => reorderTodo(s, { todo: open, before: "T3" }, ctx(now)));
  });
});
