/**
 * How a transition's collections reach their tables, part of the store's conformance (run
 * on every driver): only the items that changed are written, and an item a transition drops
 * is deleted only where the aggregate is loaded whole (todos, gates, pull requests);
 * windowed history is never deleted.
 */
import type { GoalState, TransitionResult } from "@loopx/core";
import type { Store } from "@loopx/store";
import { dbOf, sql, tables } from "@loopx/store/testing";
import { expect, it } from "vitest";
import { createFixture } from "./fixtures.ts";

/** A transition that only reshapes the state: no events, no effects. */
function reshape(change: (state: GoalState) => GoalState) {
  return (state: GoalState): TransitionResult => ({
    ok: true,
    state: change(state),
    events: [],
    effects: [],
  });
}

/** Each row's transaction id, by the row's key: it moves only when the row is written. */
async function xmins(
  store: Store,
  table: keyof typeof CHILD_KEYS,
): Promise<Record<string, string>> {
  const rows = await dbOf(store)
    .select({ k: sql<string>`${CHILD_KEYS[table]}::text`, x: sql<string>`xmin::text` })
    .from(tables[table]);
  return Object.fromEntries(rows.map((r) => [r.k, r.x]));
}

const CHILD_KEYS = {
  todos: tables.todos.key,
  gates: tables.gates.key,
  notes: tables.notes.id,
  pullRequests: tables.pullRequests.number,
};

/** Registers the cases inside a conformance suite whose hooks give a migrated, empty store. */
export function childRowCases(current: () => Store): void {
  // The suite's hooks open the store after registration: read it when a case runs.
  async function created(): Promise<GoalState> {
    const r = await current().createGoal(createFixture({ todos: 3 }));
    if (!r.ok) throw new Error(`fixture goal refused: ${r.refusal.message}`);
    return r.state;
  }

  it("deletes the todos, gates and pull requests a transition dropped; keeps dropped notes", async () => {
    const store = current();
    const state = await created();
    expect(state.notes).toHaveLength(1);
    const r = await store.apply(
      state.goal.id,
      reshape((s) => ({
        ...s,
        todos: s.todos.filter((t) => t.key !== "T2"),
        gates: [],
        pullRequests: [],
        notes: [],
      })),
    );
    if (!r.ok) throw new Error(r.refusal.message);
    const loaded = await store.loadGoal(state.goal.id);
    expect(loaded?.todos.map((t) => t.key)).toEqual(["T1", "T3"]);
    expect(loaded?.gates).toEqual([]);
    expect(loaded?.pullRequests).toEqual([]);
    // Notes are windowed history: absent from a state is not removed from the goal.
    expect(loaded?.notes).toEqual(state.notes);

    const emptied = await store.apply(
      state.goal.id,
      reshape((s) => ({ ...s, todos: [] })),
    );
    if (!emptied.ok) throw new Error(emptied.refusal.message);
    expect((await store.loadGoal(state.goal.id))?.todos).toEqual([]);
    expect(await xmins(store, "todos")).toEqual({});
  });

  it("rewrites only the rows whose item changed, in place", async () => {
    const store = current();
    const state = await created();
    const todos = await xmins(store, "todos");
    const prs = await xmins(store, "pullRequests");
    const gates = await xmins(store, "gates");
    const notes = await xmins(store, "notes");
    const r = await store.apply(
      state.goal.id,
      reshape((s) => ({
        ...s,
        todos: s.todos.map((t) => (t.key === "T2" ? { ...t, title: "Task 2, retitled" } : t)),
        pullRequests: s.pullRequests.map((p) => ({ ...p, headSha: "1234567" })),
      })),
    );
    if (!r.ok) throw new Error(r.refusal.message);
    const todosAfter = await xmins(store, "todos");
    expect(Object.keys(todosAfter).sort()).toEqual(["T1", "T2", "T3"]);
    expect(todosAfter.T1).toBe(todos.T1);
    expect(todosAfter.T3).toBe(todos.T3);
    expect(todosAfter.T2).not.toBe(todos.T2);
    const prsAfter = await xmins(store, "pullRequests");
    expect(Object.keys(prsAfter)).toEqual(["5"]);
    expect(prsAfter["5"]).not.toBe(prs["5"]);
    expect(await xmins(store, "gates")).toEqual(gates);
    expect(await xmins(store, "notes")).toEqual(notes);
    const loaded = await store.loadGoal(state.goal.id);
    expect(loaded?.todos[1]?.title).toBe("Task 2, retitled");
    expect(loaded?.pullRequests[0]?.headSha).toBe("1234567");
  });
}
