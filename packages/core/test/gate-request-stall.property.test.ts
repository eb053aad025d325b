import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyTickResult, decide } from "../src/index.ts";
import { at, claimed, ctx, expectOk, lease1, minutes, result } from "./fixtures.ts";

const scope = fc.constantFrom("deploy", "deploy:docs", "deploy:prod", "release", "merge");
const gateRequests = fc.array(
  fc.record({
    question: fc.constant("May I?"),
    scopes: fc.array(scope, { minLength: 1, maxLength: 3 }),
  }),
  { maxLength: 3 },
);

/**
 * A slice that changed nothing is a stall unless the gates it asked for now hold its todo: then
 * the todo waits for a person and the other todo runs at once. Whatever it asked, a todo held
 * by an open gate is never the one decide() runs.
 */
describe("asking for a gate is no stall only while the gate holds the todo (property)", () => {
  it("no stall ⇔ a gate now holds T1; T1 never runs while held", () => {
    fc.assert(
      fc.property(
        gateRequests,
        fc.array(scope, { maxLength: 2 }),
        fc.constantFrom("no_change", "failed"),
        (asks, granted, outcome) => {
          const s = claimed();
          s.goal.grantedScopes = granted;
          const r = expectOk(
            applyTickResult(
              s,
              {
                ...lease1,
                result: result({
                  outcome,
                  validation: null,
                  gateRequests: asks,
                  ...(outcome === "failed" ? { failure: "timeout" } : {}),
                }),
              },
              ctx(at(minutes(5))),
            ),
          ).state;
          const t1 = r.todos.find((t) => t.key === "T1");
          const covered = (need: string) =>
            [
              ...granted,
              ...r.gates.filter((g) => g.status === "approved").flatMap((g) => g.scopes),
            ].some((g) => need === g || need.startsWith(`${g}:`));
          const held = (t1?.requiredScopes ?? []).some((need) => !covered(need));
          expect(r.goal.backoff.stalledTicks).toBe(outcome === "no_change" && held ? 0 : 1);
          const next = decide(r, at(minutes(6)), "agent-b");
          if (held) expect(next.todo).not.toBe("T1");
          if (held && outcome === "no_change")
            expect([next.route, next.todo]).toEqual(["run", "T2"]);
        },
      ),
    );
  });
});
