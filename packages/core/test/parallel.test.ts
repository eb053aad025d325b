import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GoalState, Todo } from "../src/index.ts";
import {
  applyTickResult,
  claimNext,
  decide,
  freeTickSlot,
  globsOverlap,
  isLeaseLive,
  pathsHeldBy,
  todosOverlap,
} from "../src/index.ts";
import {
  at,
  claimInput,
  ctx,
  expectOk,
  expectRefused,
  minutes,
  result,
  state,
  todo,
  uuid,
} from "./fixtures.ts";

const api = (key: string, over: Partial<Todo> = {}) =>
  todo(key, { paths: ["src/api/**"], ...over });
const docs = (key: string, over: Partial<Todo> = {}) => todo(key, { paths: ["docs/**"], ...over });

function claim(s: GoalState, n: number, slot: string, now = at(0)) {
  return claimNext(s, claimInput(n, { slot }), ctx(now));
}

describe("globsOverlap", () => {
  it("matches a literal path against a pattern exactly", () => {
    expect(globsOverlap("src/a.ts", "src/*.ts")).toBe(true);
    expect(globsOverlap("src/a.ts", "docs/**")).toBe(false);
    expect(globsOverlap("README.md", "README.md")).toBe(true);
    expect(globsOverlap("README.md", "LICENSE")).toBe(false);
  });
  it("treats two patterns as overlapping when one literal prefix extends the other", () => {
    expect(globsOverlap("src/**", "src/api/*.ts")).toBe(true);
    expect(globsOverlap("**/*.sql", "docs/**")).toBe(true);
    expect(globsOverlap("src/api/**", "src/web/**")).toBe(false);
    expect(globsOverlap("docs/*.md", "src/**")).toBe(false);
  });
});

describe("todosOverlap", () => {
  it("a todo without declared paths overlaps every other", () => {
    expect(todosOverlap(todo("T1"), api("T2"))).toBe(true);
    expect(todosOverlap(api("T1"), todo("T2"))).toBe(true);
  });
  it("disjoint paths do not overlap; a shared or covering scope does", () => {
    expect(todosOverlap(api("T1"), docs("T2"))).toBe(false);
    expect(
      todosOverlap(
        api("T1", { requiredScopes: ["deploy"] }),
        docs("T2", { requiredScopes: ["deploy:production"] }),
      ),
    ).toBe(true);
    expect(
      todosOverlap(
        api("T1", { requiredScopes: ["deploy:staging"] }),
        docs("T2", { requiredScopes: ["deploy:production"] }),
      ),
    ).toBe(false);
  });
});

describe("pathsHeldBy", () => {
  it("names the running todo whose declared globs a changed path falls under", () => {
    expect(pathsHeldBy(["docs/a.md", "src/api/x.ts"], [{ key: "T2", paths: ["docs/**"] }])).toEqual(
      [{ path: "docs/a.md", todo: "T2" }],
    );
    expect(pathsHeldBy(["src/api/x.ts"], [{ key: "T2", paths: ["docs/**"] }])).toEqual([]);
  });
});

describe("parallel claims", () => {
  it("with parallel 2, a second slot claims a todo that overlaps none running", () => {
    const s = state({ todos: [api("T1"), docs("T2")] }, { parallel: 2 });
    const first = claim(s, 1, "1");
    const one = expectOk(first.result).state;
    const second = claim(one, 2, "2");
    const two = expectOk(second.result).state;
    expect(two.ticks.map((t) => [t.todo, t.slot])).toEqual([
      ["T1", "1"],
      ["T2", "2"],
    ]);
    expect(two.todos.filter((t) => isLeaseLive(t.claim, at(0))).map((t) => t.key)).toEqual([
      "T1",
      "T2",
    ]);
  });

  it("parallel 1 keeps one tick per goal even for disjoint todos", () => {
    const s = state({ todos: [api("T1"), docs("T2")] });
    const one = expectOk(claim(s, 1, "").result).state;
    const again = claim(one, 2, "");
    expect(expectRefused(again.result).code).toBe("lease_held");
    expect(again.decision?.route).toBe("wait");
    expect(again.decision?.reason).toMatch(/^T1 is being worked on by agent-a/);
  });

  it("never runs beside a todo that declares no paths", () => {
    const s = state({ todos: [todo("T1"), docs("T2")] }, { parallel: 2 });
    const one = expectOk(claim(s, 1, "1").result).state;
    const next = claim(one, 2, "2");
    expect(expectRefused(next.result).code).toBe("lease_held");
    expect(next.decision?.route).toBe("wait");
  });

  it("skips an overlapping todo for a later one that does not overlap", () => {
    const s = state(
      { todos: [api("T1"), todo("T2", { paths: ["src/api/x.ts"] }), docs("T3")] },
      { parallel: 2 },
    );
    const one = expectOk(claim(s, 1, "1").result).state;
    const two = expectOk(claim(one, 2, "2").result).state;
    expect(two.ticks.map((t) => t.todo)).toEqual(["T1", "T3"]);
  });

  it("stops at `parallel` running ticks", () => {
    const s = state(
      { todos: [api("T1"), docs("T2"), todo("T3", { paths: ["web/**"] })] },
      { parallel: 2 },
    );
    const one = expectOk(claim(s, 1, "1").result).state;
    const two = expectOk(claim(one, 2, "2").result).state;
    const third = claim(two, 3, "3");
    expect(expectRefused(third.result).code).toBe("lease_held");
    expect(third.decision?.reason).toMatch(/and 1 other running todo\)/);
  });

  it("refuses a second live tick in one slot, as a wait", () => {
    const s = state({ todos: [api("T1"), docs("T2")] }, { parallel: 2 });
    const one = expectOk(claim(s, 1, "1").result).state;
    const again = claim(one, 2, "1");
    expect(expectRefused(again.result).code).toBe("lease_held");
    expect(again.decision?.route).toBe("wait");
    expect(again.decision?.reason).toMatch(/^Slot 1 is running tick #1 on T1/);
  });

  it("a finished tick frees its slot and its todo's paths", () => {
    const s = state({ todos: [api("T1"), docs("T2"), docs("T3")] }, { parallel: 2 });
    const one = expectOk(claim(s, 1, "1").result).state;
    const two = expectOk(claim(one, 2, "2").result).state;
    const done = expectOk(
      applyTickResult(
        two,
        {
          tickId: uuid(502),
          leaseToken: "lease-token-2-xxxxxxxx",
          result: result({ todo: "T2" }),
        },
        ctx(at(minutes(5))),
      ),
    ).state;
    const three = expectOk(claim(done, 3, "2", at(minutes(6))).result).state;
    expect(three.ticks.at(-1)?.todo).toBe("T2");
  });

  it("does not replan beside running ticks", () => {
    const s = state({ todos: [api("T1"), docs("T2")] }, { parallel: 2 });
    const one = expectOk(claim(s, 1, "1").result).state;
    one.goal.replanRequested = true;
    const next = decide(one, at(0), "agent-a");
    expect(next.route).toBe("wait");
    expect(next.reason).toMatch(/^T1 is being worked on/);
  });

  it("rejects a slot outside 1..8 and a path glob that leaves the checkout", () => {
    const s = state({ todos: [api("T1")] }, { parallel: 2 });
    expect(expectRefused(claim(s, 1, "9").result).code).toBe("invalid_input");
    expect(expectRefused(claim(s, 1, "0").result).code).toBe("invalid_input");
  });
});

const PATHS = ["src/api/**", "src/web/**", "docs/**", "docs/api.md", "src/**", "README.md"];

describe("property: overlapping todos are never leased together", () => {
  it("holds for any todos, parallel, slots and claim order", () => {
    const todoArb = fc.record({
      paths: fc.subarray(PATHS, { maxLength: 2 }),
      scopes: fc.subarray(["deploy", "deploy:prod", "db"], { maxLength: 1 }),
    });
    const opArb = fc.oneof(
      fc.record({ op: fc.constant("claim" as const), slot: fc.constantFrom("", "1", "2", "3") }),
      fc.record({ op: fc.constant("finish" as const), which: fc.nat(5) }),
      fc.record({
        op: fc.constant("advance" as const),
        ms: fc.constantFrom(minutes(5), minutes(40)),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(todoArb, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(opArb, { maxLength: 25 }),
        (drafts, parallel, ops) => {
          let s = state(
            {
              todos: drafts.map((d, i) =>
                todo(`T${i + 1}`, { paths: d.paths, requiredScopes: d.scopes }),
              ),
            },
            { parallel, grantedScopes: ["deploy", "db"] },
          );
          let now = at(0);
          let n = 0;
          for (const op of ops) {
            if (op.op === "advance") now = new Date(now.getTime() + op.ms);
            if (op.op === "claim") {
              n += 1;
              const out = claimNext(s, claimInput(n, { slot: op.slot }), ctx(now));
              if (out.result.ok) s = out.result.state;
            }
            if (op.op === "finish") {
              const live = s.ticks.filter(
                (t) => t.finishedAt === null && t.leaseExpiresAt.getTime() > now.getTime(),
              );
              const t = live[op.which % Math.max(1, live.length)];
              if (t) {
                const r = applyTickResult(
                  s,
                  { tickId: t.id, leaseToken: t.leaseToken, result: result({ todo: t.todo }) },
                  ctx(now),
                );
                if (r.ok) s = r.state;
              }
            }
            const leased = s.todos.filter((t) => isLeaseLive(t.claim, now));
            expect(leased.length).toBeLessThanOrEqual(parallel);
            for (let i = 0; i < leased.length; i++) {
              for (let j = i + 1; j < leased.length; j++) {
                const a = leased[i];
                const b = leased[j];
                if (a && b) expect(todosOverlap(a, b)).toBe(false);
              }
            }
            const holding = new Set(leased.map((t) => t.claim?.tickId));
            const slots = s.ticks.filter((t) => holding.has(t.id)).map((t) => t.slot);
            expect(new Set(slots).size).toBe(slots.length);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("freeTickSlot", () => {
  it("is the goal's one slot at parallel 1, else the lowest slot no live lease holds", () => {
    expect(freeTickSlot(state({ todos: [api("T1")] }), at(0))).toBe("");
    const s = state(
      { todos: [api("T1"), docs("T2"), todo("T3", { paths: ["web/**"] })] },
      { parallel: 2 },
    );
    expect(freeTickSlot(s, at(0))).toBe("1");
    const one = expectOk(claim(s, 1, "1").result).state;
    expect(freeTickSlot(one, at(0))).toBe("2");
    const two = expectOk(claim(one, 2, "2").result).state;
    expect(freeTickSlot(two, at(0))).toBeNull();
    // Once the leases lapse, the slots are free again.
    expect(freeTickSlot(two, at(minutes(31)))).toBe("1");
  });
});
