import { describe, expect, it } from "vitest";
import { finalReportText } from "../src/final-report.ts";
import { doneTodo, goal, state, tick } from "./fixtures.ts";

describe("finalReportText", () => {
  it("totals cost from the goal's ledger, not from the ticks the aggregate happens to carry", () => {
    // A long goal's aggregate holds its recent ticks only; the ledger holds every charge.
    const spent = { usd: 41.5, tokens: 9_000_000, runnerMinutes: 1234.4, ticks: 321 };
    const recent = [tick(320, { cost: { usd: 0.5, tokens: 10, runnerMinutes: 3 } })];
    const text = finalReportText(state({ ticks: recent, goal: goal({ spent }) }));
    expect(text).toContain(
      `Ticks: ${spent.ticks}; runner minutes: ${Math.round(spent.runnerMinutes)}; cost: $${spent.usd.toFixed(2)}.`,
    );
  });

  it("reports the outcome from the goal's totals, first, however long the lists below it", () => {
    // The window carries 12 of the 40 done todos; the totals carry all of them.
    const spent = { usd: 30, tokens: 0, runnerMinutes: 600, ticks: 50 };
    const outcomes = { todosDone: 40, prsMerged: 12, personActs: 9, decisions: 3, waitedMs: 0 };
    const long = Array.from({ length: 12 }, (_, i) => ({
      ...doneTodo(`T${i + 1}`),
      title: "x".repeat(200),
    }));
    const text = finalReportText(state({ todos: long, goal: goal({ spent, outcomes }) }));
    expect(text).toContain(
      "Outcome: 40 todos done, 12 PRs merged for $30.00 ($2.50 per merged PR, $0.75 per done todo).",
    );
    expect(text).toContain(
      "People: 9 acts by people, 3 decisions on gates; no work waited on people.",
    );
  });
});
