import { describe, expect, it } from "vitest";
import { finalReportText } from "../src/final-report.ts";
import { goal, state, tick } from "./fixtures.ts";

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
});
