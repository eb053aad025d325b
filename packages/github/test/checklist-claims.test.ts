import { describe, expect, it } from "vitest";
import { parseChecklist, renderManagedBlock } from "../src/index.ts";
import { goalState, NOW, TICK_ID, todo } from "./fixtures.ts";

const STATUS_URL = "https://github.com/acme/widgets/issues/42#issuecomment-1";
const LATER = new Date(NOW.getTime() + 40 * 60_000);
const lease = { tickId: TICK_ID, agent: "loopx-agent", leaseExpiresAt: LATER };
const held = (holder: string, over: Record<string, unknown> = {}) => ({
  holder,
  via: "command",
  since: NOW,
  ...over,
});

const lineOf = (out: string, key: string) =>
  out.split("\n").find((l) => l.includes(`loopx:todo=${key} -->`)) ?? "";

describe("the checklist shows who holds a todo", () => {
  const state = () =>
    goalState({
      todos: [
        todo("T1", "Cache layout", "ready", 1, { claim: lease }),
        todo("T2", "Fix the parser", "ready", 2, { heldBy: held("alice") }),
        todo("T3", "Port the CLI", "ready", 3, {
          subIssue: { id: 801, number: 12 },
          heldBy: held("Copilot", { via: "assignment", issue: 12 }),
        }),
        todo("T4", "Write docs", "ready", 4, { heldBy: held("bob", { until: LATER }) }),
        todo("T5", "Nobody's", "ready", 5),
      ],
    });

  it("names LoopX's tick and its lease's end, a claimer, an assignee, and how each is freed", () => {
    const out = renderManagedBlock(state(), { statusCommentUrl: STATUS_URL, now: NOW });
    expect(lineOf(out, "T1")).toContain(
      "(being worked by LoopX, tick #1, until 2026-11-29 12:40 UTC)",
    );
    expect(lineOf(out, "T2")).toContain(
      "(claimed by alice; LoopX skips it, `/loopx release T2` frees it)",
    );
    expect(lineOf(out, "T3")).toContain(
      "(#12) (assigned to Copilot on #12; LoopX skips it, unassign to free it)",
    );
    expect(lineOf(out, "T4")).toContain("(claimed by bob until 2026-11-29 12:40 UTC;");
    expect(lineOf(out, "T5")).not.toContain("(");
    // A holder's login is text, not a mention: rendering the body pings no one.
    expect(out).not.toMatch(/@(alice|bob|Copilot)/);
    // The items still read back as the checklist.
    expect(parseChecklist(out).map((i) => i.todo)).toEqual(["T1", "T2", "T3", "T4", "T5"]);
  });

  it("says nothing of a lease or a claim that has ended, nor without a clock", () => {
    const out = renderManagedBlock(state(), { statusCommentUrl: STATUS_URL, now: LATER });
    expect(lineOf(out, "T1")).not.toContain("being worked");
    expect(lineOf(out, "T4")).not.toContain("claimed by bob");
    expect(lineOf(out, "T2")).toContain("claimed by alice");
    const clockless = renderManagedBlock(state(), { statusCommentUrl: STATUS_URL });
    expect(clockless).not.toContain("claimed by");
    expect(clockless).not.toContain("being worked");
  });

  it("at 20,000 todos, every listed one held, stays under 60,000 characters", () => {
    const todos = Array.from({ length: 20_000 }, (_, n) =>
      todo(`T${n + 1}`, `Open step ${n + 1} of the long migration`, "ready", n + 1, {
        heldBy: held(`holder-${"x".repeat(30)}`, {
          via: "assignment",
          issue: 100_000 + n,
          until: LATER,
        }),
      }),
    );
    const s = goalState({ todos });
    const counted = { ...s, goal: { ...s.goal, counters: { ...s.goal.counters, todo: 20_001 } } };
    const out = renderManagedBlock(counted, { statusCommentUrl: STATUS_URL, now: NOW });
    expect(out.length).toBeLessThan(60_000);
    expect(out).not.toContain("… truncated");
    expect(parseChecklist(out)).toHaveLength(50);
  });
});
