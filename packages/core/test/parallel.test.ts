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

describe("budget with parallel ticks", () => {
  const four = () => [
    api("T1"),
    docs("T2"),
    todo("T3", { paths: ["web/**"] }),
    todo("T4", { paths: ["lib/**"] }),
  ];
  const spent = (usd: number, ticks = 0) => ({ usd, tokens: 0, runnerMinutes: 0, ticks });
  // The fixtures' tick cap is $2, 1000 tokens, 30 runner minutes.
  const table: {
    name: string;
    budget: Record<string, number>;
    usd?: number;
    ticks?: number;
    live: number;
  }[] = [
    { name: "$3 left holds one $2 cap", budget: { usd: 3 }, live: 1 },
    { name: "$4 left holds two caps", budget: { usd: 4 }, live: 2 },
    { name: "$7.99 left holds three caps", budget: { usd: 10 }, usd: 2.01, live: 3 },
    { name: "a lone tick still runs on the last cent", budget: { usd: 1 }, usd: 0.99, live: 1 },
    { name: "no limit: parallel bounds it", budget: {}, live: 4 },
    { name: "one tick left in the count", budget: { ticks: 3 }, ticks: 2, live: 1 },
    { name: "two ticks left in the count", budget: { ticks: 3 }, ticks: 1, live: 2 },
    { name: "tokens for two caps", budget: { tokens: 2500 }, live: 2 },
    { name: "runner minutes for three caps", budget: { runnerMinutes: 90 }, live: 3 },
  ];
  for (const row of table) {
    it(`${row.name}: ${row.live} live`, () => {
      let s = state(
        { todos: four() },
        { parallel: 4, budget: row.budget, spent: spent(row.usd ?? 0, row.ticks ?? 0) },
      );
      for (let n = 1; n <= 4; n++) {
        const out = claim(s, n, String(n));
        if (n <= row.live) s = expectOk(out.result).state;
        else {
          expect(expectRefused(out.result).code).toBe("lease_held");
          expect(out.decision?.route).toBe("wait");
        }
      }
      expect(s.todos.filter((t) => isLeaseLive(t.claim, at(0)))).toHaveLength(row.live);
    });
  }

  it("property: beside a running tick, spent plus every live cap stays within the budget", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2000 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant("claim" as const) }),
            fc.record({
              op: fc.constant("finish" as const),
              which: fc.nat(3),
              usd: fc.integer({ min: 0, max: 200 }),
            }),
          ),
          { maxLength: 20 },
        ),
        (budgetCents, parallel, ops) => {
          const budget = budgetCents / 100;
          const cap = 2;
          let s = state({ todos: four() }, { parallel, budget: { usd: budget } });
          let n = 0;
          const now = at(0);
          for (const op of ops) {
            if (op.op === "claim") {
              n += 1;
              const live = s.ticks.filter((t) => t.finishedAt === null);
              const slot = [1, 2, 3, 4].find((k) => !live.some((t) => t.slot === String(k)));
              const out = claim(s, n, String(slot ?? 1));
              if (out.result.ok) s = out.result.state;
            } else {
              const live = s.ticks.filter((t) => t.finishedAt === null);
              const t = live[op.which % Math.max(1, live.length)];
              if (t) {
                // A slice spends at most its cap: the action stops it there.
                const r = applyTickResult(
                  s,
                  {
                    tickId: t.id,
                    leaseToken: t.leaseToken,
                    result: result({
                      todo: t.todo,
                      cost: { usd: op.usd / 100, tokens: 0, runnerMinutes: 0 },
                    }),
                  },
                  ctx(now),
                );
                if (r.ok) s = r.state;
              }
            }
            const live = s.todos.filter((t) => isLeaseLive(t.claim, now)).length;
            const left = budget - s.goal.spent.usd;
            if (live >= 2) {
              expect(live).toBeLessThanOrEqual(Math.floor(left / cap + 1e-9));
              expect(s.goal.spent.usd + live * cap).toBeLessThanOrEqual(budget + 1e-9);
            }
            // Parallel or not, the ledger passes the budget by at most the one lone tick's cap.
            expect(s.goal.spent.usd).toBeLessThanOrEqual(budget + cap + 1e-9);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("a change of parallel reaches a running goal at its next claim", () => {
  const three = () => [api("T1"), docs("T2"), todo("T3", { paths: ["web/**"] })];
  const claimWith = (s: GoalState, n: number, slot: string, parallel: number) =>
    claimNext(s, claimInput(n, { slot, parallel }), ctx(at(0)));

  it("raised, a tick runs beside the running one and the goal keeps the new value", () => {
    const one = expectOk(claim(state({ todos: three() }), 1, "").result).state;
    const out = claimWith(one, 2, "1", 3);
    const two = expectOk(out.result);
    expect(two.state.goal.parallel).toBe(3);
    expect(two.events.filter((e) => e.type === "goal.parallel_changed")).toMatchObject([
      { data: { before: 1, after: 3 } },
    ]);
    expect(two.state.todos.filter((t) => isLeaseLive(t.claim, at(0))).map((t) => t.key)).toEqual([
      "T1",
      "T2",
    ]);
  });

  it("lowered, no new tick starts and the running ticks keep their leases", () => {
    const s = state({ todos: three() }, { parallel: 3 });
    const one = expectOk(claim(s, 1, "1").result).state;
    const two = expectOk(claim(one, 2, "2").result).state;
    const out = claimWith(two, 3, "3", 1);
    expect(expectRefused(out.result).code).toBe("lease_held");
    expect(out.decision?.route).toBe("wait");
    expect(two.todos.filter((t) => isLeaseLive(t.claim, at(0))).map((t) => t.key)).toEqual([
      "T1",
      "T2",
    ]);
    // Lowered to the number running: still no third.
    const lowered = claimWith(two, 4, "3", 2);
    expect(expectRefused(lowered.result).code).toBe("lease_held");
  });

  it("unchanged, the claim records no change", () => {
    const s = state({ todos: three() }, { parallel: 2 });
    const out = expectOk(claimWith(s, 1, "1", 2).result);
    expect(out.events.some((e) => e.type === "goal.parallel_changed")).toBe(false);
    expect(out.state.goal.parallel).toBe(2);
  });

  it("refuses a parallel outside 1..8", () => {
    const s = state({ todos: three() });
    expect(expectRefused(claimWith(s, 1, "", 0).result).code).toBe("invalid_input");
    expect(expectRefused(claimWith(s, 1, "", 9).result).code).toBe("invalid_input");
  });
});
