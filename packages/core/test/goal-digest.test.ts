import { describe, expect, it } from "vitest";
import {
  agentClaimSummary,
  considerDigest,
  DIGEST_OFF_RECHECK_MS,
  durationWords,
  type Effect,
  type GoalState,
  goalDigest,
  occasionWaits,
} from "../src/index.ts";
import {
  at,
  ctx,
  doneTodo,
  expectOk,
  expectRefused,
  gate,
  state,
  T0,
  todo,
  uuid,
} from "./fixtures.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SYSTEM = { kind: "system", reason: "digest" } as const;

/** A goal started at T0 that by day one finished T1 and waits on T2's gate. */
function worked(): GoalState {
  const s = state(
    {
      todos: [
        doneTodo("T1", undefined, {
          title: "Fix total() for @octo's cart",
          completion: {
            continuation: { kind: "no_followup", reason: "finished" },
            evidenceIds: [uuid(900)],
            tickId: null,
            at: at(2 * HOUR),
          },
        }),
        todo("T2", { title: "Release 1.0.0", requiredScopes: ["release"] }),
        todo("T3", { title: "Write the changelog" }),
      ],
      gates: [gate("G1", ["release"], { openedAt: at(3 * HOUR), requestedFrom: ["alice"] })],
      evidence: [
        {
          id: uuid(900),
          kind: "test",
          summary: "node --test: 4 passed, 0 failed, exit 0\nTAP version 13 …",
          url: null,
          sha: null,
          todo: "T1",
          tickId: null,
          observedAt: at(2 * HOUR),
          stale: false,
        },
      ],
    },
    {
      budget: { usd: 10, ticks: 50 },
      spent: { usd: 1.5, tokens: 900, runnerMinutes: 12.4, ticks: 3 },
      outcomes: { todosDone: 1, prsMerged: 0, personActs: 1, decisions: 0, waitedMs: 0 },
    },
  );
  return s;
}

const notices = (effects: Effect[]) => effects.filter((e) => e.kind === "notify");

describe("goalDigest", () => {
  it("says what was done since, its evidence, spend against budget, what is next and who is waited on", () => {
    const { text } = goalDigest(worked(), T0, at(DAY));
    expect(text.split("\n")).toEqual([
      "Since 2026-01-05 12:00 UTC:",
      "",
      "- Done: T1 Fix total() for @octo's cart.",
      "- Evidence: 1 new item.",
      "  - T1: node --test: 4 passed, 0 failed, exit 0",
      "- Spent: $1.50 of $10.00; 3 of 50 ticks; 12 runner minutes.",
      "- Now: about to run.",
      "- Next: T3 Write the changelog.",
      `- Waiting for alice: G1, open for ${durationWords(21 * HOUR)}.`,
    ]);
  });

  it("lists only what happened after `since`", () => {
    const { text } = goalDigest(worked(), at(5 * HOUR), at(DAY));
    expect(text).toContain("- Done: nothing new.");
    expect(text).not.toContain("Evidence");
  });

  it("tells each fact once, and marks what is only the agent's word", () => {
    const s = worked();
    const [run] = s.evidence;
    if (!run) throw new Error("fixture has evidence");
    s.evidence.push(
      { ...run, id: uuid(901) },
      { ...run, id: uuid(902), kind: "note", summary: agentClaimSummary("all tests pass") },
    );
    const { text } = goalDigest(s, T0, at(DAY));
    expect(text).toContain("- Evidence: 2 new items.");
    expect(text.split("\n").filter((l) => l.includes("node --test: 4 passed"))).toHaveLength(1);
    expect(text).toContain("  - T1: all tests pass (the agent's claim, not checked)");
  });

  it("fingerprints the goal, not the window or the clock", () => {
    const a = goalDigest(worked(), T0, at(DAY));
    const b = goalDigest(worked(), at(DAY), at(2 * DAY));
    expect(b.fingerprint).toBe(a.fingerprint);
    const moved = worked();
    moved.goal.spent = { ...moved.goal.spent, usd: 2.5, ticks: 4 };
    expect(goalDigest(moved, at(DAY), at(2 * DAY)).fingerprint).not.toBe(a.fingerprint);
  });
});

describe("considerDigest", () => {
  it("before an interval has passed since the start, only schedules the next look", () => {
    const r = expectOk(considerDigest(worked(), { everyMs: DAY }, ctx(at(HOUR), SYSTEM)));
    expect(notices(r.effects)).toEqual([]);
    expect(r.state.goal.digest).toMatchObject({ count: 0, sentAt: null, dueAt: at(DAY) });
    // Nothing the status comment shows changed: it is not re-rendered.
    expect(r.effects.some((e) => e.kind === "status")).toBe(false);
  });

  it("once due, posts one digest through the notification path, without a reminder", () => {
    const now = at(DAY + 5_000);
    const r = expectOk(considerDigest(worked(), { everyMs: DAY }, ctx(now, SYSTEM)));
    const told = notices(r.effects);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      key: "notify:digest:1",
      reminder: false,
      occasion: { kind: "digest", key: "digest:1" },
    });
    expect(r.events.map((e) => e.type)).toContain("goal.digest_sent");
    // T3 could run now, but a digest's look dispatches nothing: that is the scheduler's call.
    expect(r.effects.filter((e) => e.kind === "dispatch")).toEqual([]);
    // Nor is it progress: lists that order goals by their last update do not move it up.
    expect(r.state.goal.updatedAt).toEqual(worked().goal.updatedAt);
    expect(r.state.goal.digest).toMatchObject({
      count: 1,
      sentAt: now,
      dueAt: new Date(now.getTime() + DAY),
    });
  });

  it("an unchanged goal gets no second digest; a change gets one about what is new", () => {
    const first = expectOk(considerDigest(worked(), { everyMs: DAY }, ctx(at(DAY), SYSTEM))).state;
    const quiet = expectOk(considerDigest(first, { everyMs: DAY }, ctx(at(2 * DAY), SYSTEM)));
    expect(notices(quiet.effects)).toEqual([]);
    expect(quiet.state.goal.digest).toMatchObject({ count: 1, dueAt: at(3 * DAY) });

    const moved = structuredClone(quiet.state);
    const t3 = moved.todos.find((t) => t.key === "T3");
    if (!t3) throw new Error("fixture lost T3");
    Object.assign(t3, {
      status: "done",
      completion: {
        continuation: { kind: "no_followup", reason: "finished" },
        evidenceIds: [uuid(900)],
        tickId: null,
        at: at(2 * DAY + HOUR),
      },
    });
    moved.goal.outcomes = { ...moved.goal.outcomes, todosDone: 2 };
    const second = expectOk(considerDigest(moved, { everyMs: DAY }, ctx(at(3 * DAY), SYSTEM)));
    const [told] = notices(second.effects);
    if (told?.kind !== "notify") throw new Error("no digest after a change");
    expect(told.key).toBe("notify:digest:2");
    // Since the last digest posted, not since the quiet look.
    expect(told.occasion.text).toContain("Since 2026-01-06 12:00 UTC:");
    expect(told.occasion.text).toContain("- Done: T3 Write the changelog.");
    expect(told.occasion.text).not.toContain("T1 Fix");
  });

  it('"never" posts nothing and looks at the config again a day later', () => {
    const r = expectOk(considerDigest(worked(), { everyMs: null }, ctx(at(9 * DAY), SYSTEM)));
    expect(notices(r.effects)).toEqual([]);
    expect(r.state.goal.digest.dueAt).toEqual(at(9 * DAY + DIGEST_OFF_RECHECK_MS));
  });

  it("refuses a goal that is not active, and an interval under an hour", () => {
    const paused = worked();
    paused.goal.status = "paused";
    expect(expectRefused(considerDigest(paused, { everyMs: DAY }, ctx(at(DAY), SYSTEM))).code).toBe(
      "goal_inactive",
    );
    const r = expectRefused(considerDigest(worked(), { everyMs: 60_000 }, ctx(at(DAY), SYSTEM)));
    expect(r.code).toBe("invalid_input");
    expect(r.message).toContain("at most hourly");
  });

  it("a digest queued before the goal paused is not posted", () => {
    const r = expectOk(considerDigest(worked(), { everyMs: DAY }, ctx(at(DAY), SYSTEM)));
    const [told] = notices(r.effects);
    if (told?.kind !== "notify") throw new Error("no digest");
    expect(occasionWaits(r.state, told.occasion)).toBe(true);
    const paused = structuredClone(r.state);
    paused.goal.status = "paused";
    expect(occasionWaits(paused, told.occasion)).toBe(false);
  });
});
