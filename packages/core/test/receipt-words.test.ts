import { describe, expect, it } from "vitest";
import { type LedgerEvent, RECEIPT_EVENT_TYPES, receiptWords } from "../src/receipt-words.ts";

const AT = new Date("2026-12-05T14:03:27.512Z");
const ALICE = { kind: "human", login: "alice", trusted: true } as const;
const HEAD = "abcdef0123456789abcdef0123456789abcdef01";
const ACT = "https://github.com/acme/widgets/issues/7#issuecomment-99";

const event = (
  type: string,
  data: Record<string, unknown>,
  actor: LedgerEvent["actor"] = ALICE,
) => ({
  type,
  actor,
  at: AT,
  data,
});

describe("receiptWords: an act in one sentence", () => {
  it("an approval names who, the gate and its scopes, the head, when, the note and the act", () => {
    expect(
      receiptWords(
        event("gate.approved", {
          gate: "G2",
          scopes: ["merge"],
          head: HEAD,
          note: "ship it",
          act: ACT,
        }),
      ),
    ).toEqual({
      text: "alice approved G2 (merge) for head abcdef0 at 2026-12-05 14:03 UTC: ship it",
      link: ACT,
    });
  });

  it("a rejection carries its reason; a gate with no PR names no head", () => {
    expect(
      receiptWords(event("gate.rejected", { gate: "G1", scopes: ["deploy"], reason: "not today" })),
    ).toEqual({
      text: "alice rejected G1 (deploy) at 2026-12-05 14:03 UTC: not today",
      link: null,
    });
    expect(
      receiptWords(event("gate.approved", { gate: "G1", scopes: ["deploy"], head: null }))?.text,
    ).toBe("alice approved G1 (deploy) at 2026-12-05 14:03 UTC");
  });

  it("a gate opened on no todo and no PR (nulls in its event) still reads in full", () => {
    // openGate records `todo: null, pr: null` for a gate that is about neither.
    const line = receiptWords(
      event(
        "gate.opened",
        { gate: "G1", scopes: ["deploy"], todo: null, pr: null },
        { kind: "app" },
      ),
    );
    expect(line?.text).toBe("LoopX opened G1 (deploy) at 2026-12-05 14:03 UTC");
  });

  it("a reopened gate says which heads, so an old approval is seen not to count", () => {
    const line = receiptWords(
      event(
        "gate.reopened",
        { gate: "G3", pr: 12, from: HEAD, to: "1234567890abcdef" },
        { kind: "app" },
      ),
    );
    expect(line?.text).toBe(
      "G3 reopened at 2026-12-05 14:03 UTC: #12 moved from abcdef0 to 1234567, so an approval of the old head no longer counts",
    );
  });

  it("a budget change lists each limit that moved, from what to what", () => {
    const line = receiptWords(
      event("goal.budget_changed", {
        before: { usd: 0.6, ticks: 10 },
        after: { usd: 2, ticks: 10, runnerMinutes: 30 },
        act: ACT,
      }),
    );
    expect(line).toEqual({
      text: "alice changed the budget at 2026-12-05 14:03 UTC: usd 0.6 → 2, runnerMinutes unlimited → 30",
      link: ACT,
    });
  });

  it("a person's checkbox is a receipt; LoopX completing a todo on evidence is not an act", () => {
    expect(receiptWords(event("todo.completed", { todo: "T4", by: "@alice" }))?.text).toBe(
      "alice ticked T4 done at 2026-12-05 14:03 UTC",
    );
    expect(receiptWords(event("todo.completed", { todo: "T4" }, { kind: "app" }))).toBeNull();
  });

  it("claims name the holder without an @, and say when they came from an assignment", () => {
    expect(
      receiptWords(
        event(
          "todo.claim_taken",
          { todo: "T3", holder: "Copilot", via: "assignment" },
          { kind: "app" },
        ),
      )?.text,
    ).toBe("Copilot holds T3 (assigned) at 2026-12-05 14:03 UTC");
    expect(receiptWords(event("todo.claim_released", { todo: "T3", holder: "@bob" }))?.text).toBe(
      "bob let go of T3 at 2026-12-05 14:03 UTC",
    );
  });

  it("links only to web URLs, whatever the data says", () => {
    for (const act of ["javascript:alert(1)", "data:text/html,x", 'https://x/"onmouseover=1', 7]) {
      expect(
        receiptWords(event("gate.rejected", { gate: "G1", reason: "no", act }))?.link,
      ).toBeNull();
    }
  });

  it("every type listed as a receipt has words; machinery has none", () => {
    const data = {
      gate: "G1",
      todo: "T1",
      holder: "bob",
      scopes: ["x"],
      pr: 1,
      from: HEAD,
      to: HEAD,
    };
    for (const type of RECEIPT_EVENT_TYPES) {
      expect(receiptWords(event(type, data)), type).not.toBeNull();
    }
    for (const type of ["lease.renewed", "cost.charged", "evidence.added", "goal.woken"]) {
      expect(receiptWords(event(type, data)), type).toBeNull();
    }
  });
});
