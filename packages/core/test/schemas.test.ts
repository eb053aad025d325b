import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { prettifyError } from "zod";
import { Gate, Goal, HarnessResult, Tick, Todo } from "../src/index.ts";
import { gate, goal, tick, todo } from "./fixtures.ts";

interface Case {
  name: string;
  schema: z.ZodType;
  value: unknown;
  /** The field path as prettifyError prints it, and words from the reason. */
  path: string;
  reason: string;
}

const cases: Case[] = [
  {
    name: "todo key",
    schema: Todo,
    value: { ...todo("T1"), key: "X1" },
    path: "key",
    reason: "T followed by a number",
  },
  {
    name: "todo status",
    schema: Todo,
    value: { ...todo("T1"), status: "running" },
    path: "status",
    reason: "ready",
  },
  {
    name: "empty title",
    schema: Todo,
    value: { ...todo("T1"), title: "  " },
    path: "title",
    reason: "must not be empty",
  },
  {
    name: "scope shape",
    schema: Todo,
    value: { ...todo("T1"), requiredScopes: ["Deploy Now"] },
    path: "requiredScopes[0]",
    reason: "scope",
  },
  {
    name: "done without evidence",
    schema: Todo,
    value: {
      ...todo("T1"),
      completion: {
        continuation: { kind: "goal_active" },
        evidenceIds: [],
        tickId: null,
        at: new Date(),
      },
    },
    path: "completion.evidenceIds",
    reason: "evidence",
  },
  {
    name: "gate without scopes",
    schema: Gate,
    value: { ...gate("G1", ["merge"]), scopes: [] },
    path: "scopes",
    reason: "at least one scope",
  },
  {
    name: "goal without owners",
    schema: Goal,
    value: { ...goal(), owners: [] },
    path: "owners",
    reason: "at least one owner",
  },
  {
    name: "negative cost",
    schema: Goal,
    value: { ...goal(), tickCap: { usd: -1, tokens: 0, runnerMinutes: 0 } },
    path: "tickCap.usd",
    reason: ">=0",
  },
  {
    name: "compute above 1",
    schema: Goal,
    value: { ...goal(), quota: { windowHours: 24, slotMinutes: 30, compute: 2 } },
    path: "quota.compute",
    reason: "<=1",
  },
  {
    name: "short lease token",
    schema: Tick,
    value: { ...tick(1), leaseToken: "abc" },
    path: "leaseToken",
    reason: ">=16",
  },
  {
    name: "completed without continuation",
    schema: HarnessResult,
    value: {
      todo: "T1",
      outcome: "completed",
      handoff: { done: "", next: "" },
      cost: { usd: 0, tokens: 0, runnerMinutes: 0 },
    },
    path: "continuation",
    reason: "exactly one continuation",
  },
  {
    name: "failed without failure kind",
    schema: HarnessResult,
    value: {
      todo: "T1",
      outcome: "failed",
      handoff: { done: "", next: "" },
      cost: { usd: 0, tokens: 0, runnerMinutes: 0 },
    },
    path: "failure",
    reason: "needs a failure kind",
  },
  {
    name: "oversized handoff",
    schema: HarnessResult,
    value: {
      todo: "T1",
      outcome: "progress",
      handoff: { done: "x".repeat(2000), next: "y".repeat(1500) },
      cost: { usd: 0, tokens: 0, runnerMinutes: 0 },
    },
    path: "handoff.done",
    reason: "3000 characters",
  },
];

describe("schemas reject bad data, naming the field and the reason", () => {
  it.each(cases)("$name", (c) => {
    const parsed = c.schema.safeParse(c.value);
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    const text = prettifyError(parsed.error);
    expect(text).toContain(`at ${c.path}`);
    expect(text).toContain(c.reason);
  });

  it("accepts the fixtures", () => {
    expect(Todo.safeParse(todo("T1")).success).toBe(true);
    expect(Gate.safeParse(gate("G1", ["deploy:production"])).success).toBe(true);
    expect(Goal.safeParse(goal()).success).toBe(true);
    expect(Tick.safeParse(tick(1)).success).toBe(true);
  });

  it("round-trips instants through JSON", () => {
    const back = Todo.parse(JSON.parse(JSON.stringify(todo("T1"))));
    expect(back.createdAt).toBeInstanceOf(Date);
  });
});
