import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AWAITING_EVIDENCE, applyTickResult } from "../src/index.ts";
import { at, claimed, ctx, expectOk, lease1, minutes, result } from "./fixtures.ts";

const summary = fc.string({ minLength: 1, maxLength: 80 }).filter((s) => s.trim() !== "");
const claimedEvidence = fc.array(
  fc.record({ kind: fc.constantFrom("test", "note", "log", "metric", "check", "pr"), summary }),
  { maxLength: 5 },
);
const validation = fc.option(
  fc.record({
    command: fc.constant("npm test"),
    exitCode: fc.integer({ min: 0, max: 2 }),
    passed: fc.boolean(),
  }),
);

describe("only independent evidence completes a todo (property)", () => {
  it("without commits, a todo is done only when a validation passed on a changed tree", () => {
    fc.assert(
      fc.property(
        claimedEvidence,
        validation,
        fc.option(fc.boolean(), { nil: undefined }),
        (evidence, v, changed) => {
          const r = expectOk(
            applyTickResult(
              claimed(),
              {
                ...lease1,
                result: result({
                  outcome: "completed",
                  evidence,
                  validation: v,
                  ...(changed === undefined ? {} : { changed }),
                  continuation: { kind: "goal_active" },
                }),
              },
              ctx(at(minutes(5))),
            ),
          );
          const t1 = r.state.todos.find((t) => t.key === "T1");
          const independent = v?.passed === true && changed !== false;
          expect(t1?.status).toBe(independent ? "done" : "blocked");
          if (!independent) expect(t1?.blockedReason).toBe(AWAITING_EVIDENCE);
          // Whatever completed it, the agent's own evidence is never among its support.
          const support = new Set(t1?.completion?.evidenceIds ?? []);
          const agents = r.state.evidence.filter((e) =>
            evidence.some((c) => c.summary.trim() === e.summary),
          );
          expect(agents.some((e) => support.has(e.id))).toBe(false);
        },
      ),
    );
  });
});
