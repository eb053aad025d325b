import { completeTodoByHuman } from "@loopx/core";
import { describe, expect, it } from "vitest";
import { ctx, expectOk, OWNER, state, T0, todo } from "../../../packages/core/test/fixtures.ts";
import { chainTransitions } from "../../src/intake/chain-transitions.ts";

describe("chainTransitions", () => {
  it("counts one person's edit as one act, however many steps it took", () => {
    // A writer ticks two boxes in one edit of the issue body: two steps, one act.
    const edit = chainTransitions([
      (s, c) => completeTodoByHuman(s, { todo: "T1" }, c),
      (s, c) => completeTodoByHuman(s, { todo: "T2" }, c),
    ]);
    const r = expectOk(edit(state({ todos: [todo("T1"), todo("T2")] }), ctx(T0, OWNER)));
    expect(r.state.goal.outcomes).toMatchObject({ todosDone: 2, personActs: 1 });
    expect(r.state.goal.version).toBe(2);
  });
});
