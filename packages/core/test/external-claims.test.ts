import { describe, expect, it } from "vitest";
import {
  type Actor,
  claimNext,
  claimOf,
  decide,
  releaseClaim,
  syncAssignees,
  takeClaim,
} from "../src/index.ts";
import {
  at,
  claimed,
  claimInput,
  ctx,
  expectOk,
  expectRefused,
  minutes,
  STRANGER,
  state,
  T0,
  todo,
  WRITER,
} from "./fixtures.ts";

const SYSTEM: Actor = { kind: "system", reason: "issues.assigned" };
const OTHER_WRITER: Actor = { kind: "human", login: "maint", trusted: true };

const twoTodos = () => state({ todos: [todo("T1"), todo("T2")] });
const withSubIssue = () =>
  state({ todos: [todo("T1", { subIssue: { id: 901, number: 12 } }), todo("T2")] });

describe("takeClaim", () => {
  it("a writer's claim holds the todo for them: the next tick works T2, not T1", () => {
    const held = expectOk(takeClaim(twoTodos(), { todo: "T1" }, ctx(T0, WRITER)));
    expect(held.state.todos[0]?.heldBy).toMatchObject({
      holder: "writer",
      via: "command",
      since: T0,
      until: null,
    });
    expect(held.events.map((e) => e.type)).toContain("todo.claim_taken");
    expect(claimOf(held.state, "T1", T0)).toMatchObject({ kind: "external", holder: "writer" });
    const next = claimNext(held.state, claimInput(1), ctx(at(minutes(1))));
    expect(next.decision?.todo).toBe("T2");
    expect(expectOk(next.result).state.todos[1]?.claim?.tickId).toBe(claimInput(1).tickId);
  });

  it("a goal whose only todo is held waits, naming the holder, and does not replan", () => {
    const s = expectOk(
      takeClaim(state({ todos: [todo("T1")] }), { todo: "T1" }, ctx(T0, WRITER)),
    ).state;
    const d = decide(s, at(minutes(1)), "agent-a");
    expect(d.route).toBe("wait");
    expect(d.reason).toContain("T1 (held by @writer (claimed))");
    expect(expectRefused(claimNext(s, claimInput(1), ctx(at(minutes(1)))).result).code).toBe(
      "invalid_state",
    );
  });

  it("a claim with an end lets the todo run again at that end, and wakes the loop then", () => {
    const until = at(minutes(60));
    const s = expectOk(
      takeClaim(state({ todos: [todo("T1")] }), { todo: "T1", until }, ctx(T0, WRITER)),
    ).state;
    expect(decide(s, at(minutes(59)), "agent-a").nextWakeAt).toEqual(until);
    expect(claimOf(s, "T1", until)).toBeNull();
    expect(decide(s, until, "agent-a")).toMatchObject({ route: "run", todo: "T1" });
  });

  it("refuses an outsider, a second claimer, a finished todo and a todo a tick works now", () => {
    expect(expectRefused(takeClaim(twoTodos(), { todo: "T1" }, ctx(T0, STRANGER))).code).toBe(
      "not_authorized",
    );
    const held = expectOk(takeClaim(twoTodos(), { todo: "T1" }, ctx(T0, WRITER))).state;
    const second = expectRefused(takeClaim(held, { todo: "T1" }, ctx(T0, OTHER_WRITER)));
    expect(second.code).toBe("lease_held");
    expect(second.message).toContain("claimed by @writer");
    expect(expectRefused(takeClaim(held, { todo: "T1" }, ctx(T0, WRITER))).code).toBe("duplicate");
    const done = state({ todos: [todo("T1", { status: "done" })] });
    expect(expectRefused(takeClaim(done, { todo: "T1" }, ctx(T0, WRITER))).code).toBe(
      "invalid_state",
    );
    const working = expectRefused(takeClaim(claimed(), { todo: "T1" }, ctx(T0, WRITER)));
    expect(working.code).toBe("lease_held");
    expect(working.message).toContain("being worked by LoopX (tick #1)");
    expect(expectRefused(takeClaim(twoTodos(), { todo: "T9" }, ctx(T0, WRITER))).code).toBe(
      "not_found",
    );
  });
});

describe("releaseClaim", () => {
  const held = () => expectOk(takeClaim(twoTodos(), { todo: "T1" }, ctx(T0, WRITER))).state;

  it("the claimer or another writer releases it, and T1 is the next todo again", () => {
    for (const who of [WRITER, OTHER_WRITER]) {
      const r = expectOk(releaseClaim(held(), { todo: "T1" }, ctx(at(minutes(2)), who)));
      expect(r.state.todos[0]?.heldBy).toBeNull();
      expect(r.events.map((e) => e.type)).toContain("todo.claim_released");
      expect(decide(r.state, at(minutes(2)), "agent-a").todo).toBe("T1");
    }
  });

  it("a claimer who lost write access may still let go; a stranger may not", () => {
    const former: Actor = { kind: "human", login: "writer", trusted: false };
    expectOk(releaseClaim(held(), { todo: "T1" }, ctx(T0, former)));
    expect(expectRefused(releaseClaim(held(), { todo: "T1" }, ctx(T0, STRANGER))).code).toBe(
      "not_authorized",
    );
  });

  it("refuses a todo nobody holds, and one held by an assignment", () => {
    expect(expectRefused(releaseClaim(twoTodos(), { todo: "T1" }, ctx(T0, WRITER))).code).toBe(
      "not_found",
    );
    const assigned = expectOk(
      syncAssignees(withSubIssue(), { issue: 12, assignees: ["Copilot"] }, ctx(T0, SYSTEM)),
    ).state;
    const r = expectRefused(releaseClaim(assigned, { todo: "T1" }, ctx(T0, WRITER)));
    expect(r.code).toBe("invalid_state");
    expect(r.message).toContain("unassign them on #12");
  });
});

describe("syncAssignees", () => {
  it("an assignee of the sub-issue (a bot too) holds the todo until nobody is assigned", () => {
    const r = expectOk(
      syncAssignees(withSubIssue(), { issue: 12, assignees: ["dependabot[bot]"] }, ctx(T0, SYSTEM)),
    );
    expect(claimOf(r.state, "T1", T0)).toMatchObject({
      kind: "external",
      holder: "dependabot[bot]",
      via: "assignment",
      issue: 12,
    });
    expect(decide(r.state, T0, "agent-a").todo).toBe("T2");
    const gone = expectOk(syncAssignees(r.state, { issue: 12, assignees: [] }, ctx(T0, SYSTEM)));
    expect(claimOf(gone.state, "T1", T0)).toBeNull();
    expect(decide(gone.state, T0, "agent-a").todo).toBe("T1");
  });

  it("keeps the holder while they stay assigned, and moves to whoever is left", () => {
    const two = expectOk(
      syncAssignees(withSubIssue(), { issue: 12, assignees: ["alice", "bob"] }, ctx(T0, SYSTEM)),
    ).state;
    expect(
      expectRefused(syncAssignees(two, { issue: 12, assignees: ["bob", "alice"] }, ctx(T0, SYSTEM)))
        .code,
    ).toBe("duplicate");
    const left = expectOk(syncAssignees(two, { issue: 12, assignees: ["bob"] }, ctx(T0, SYSTEM)));
    expect(left.state.todos[0]?.heldBy?.holder).toBe("bob");
  });

  it("ignores issues that are no todo's sub-issue and unassignments of command claims", () => {
    expect(
      expectRefused(syncAssignees(withSubIssue(), { issue: 99, assignees: ["a"] }, ctx(T0, SYSTEM)))
        .code,
    ).toBe("not_found");
    const claimedByCommand = expectOk(
      takeClaim(withSubIssue(), { todo: "T1" }, ctx(T0, WRITER)),
    ).state;
    expect(
      expectRefused(syncAssignees(claimedByCommand, { issue: 12, assignees: [] }, ctx(T0, SYSTEM)))
        .code,
    ).toBe("not_found");
  });
});

describe("the notice when a held todo is skipped", () => {
  it("is one receipt, on the first tick that works another todo instead, not on later ones", () => {
    const held = expectOk(takeClaim(twoTodos(), { todo: "T1" }, ctx(T0, WRITER))).state;
    const first = expectOk(claimNext(held, claimInput(1), ctx(at(minutes(1)))).result);
    const notices = first.effects.filter((e) => e.kind === "receipt");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      text: expect.stringContaining("LoopX skips T1 and works on T2 instead: @writer claimed it"),
    });
    expect(first.state.todos[0]?.heldBy?.noticed).toBe(true);
    const t2 = first.state.todos[1];
    if (!t2) throw new Error("T2 is missing");
    // The first tick has finished (its claim let go); a later one works T3, silently about T1.
    const later = structuredClone(first.state);
    later.todos[1] = { ...t2, claim: null, status: "done" };
    later.todos.push(todo("T3"));
    const second = expectOk(claimNext(later, claimInput(2), ctx(at(minutes(40)))).result);
    expect(second.state.todos[2]?.claim).not.toBeNull();
    expect(second.effects.filter((e) => e.kind === "receipt")).toEqual([]);
  });

  it("says nothing when the held todo comes after the one worked", () => {
    const held = expectOk(takeClaim(twoTodos(), { todo: "T2" }, ctx(T0, WRITER))).state;
    const r = expectOk(claimNext(held, claimInput(1), ctx(at(minutes(1)))).result);
    expect(r.state.todos[0]?.claim).not.toBeNull();
    expect(r.effects.filter((e) => e.kind === "receipt")).toEqual([]);
  });
});

describe("claimOf", () => {
  it("shows LoopX's own lease with its tick and end, and nothing for a free todo", () => {
    const s = claimed();
    expect(claimOf(s, "T1", T0)).toMatchObject({
      kind: "lease",
      holder: "agent-a",
      tickNumber: 1,
      until: at(minutes(30)),
    });
    expect(claimOf(s, "T1", at(minutes(30)))).toBeNull();
    expect(claimOf(s, "T2", T0)).toBeNull();
    expect(claimOf(s, "T9", T0)).toBeNull();
  });
});
