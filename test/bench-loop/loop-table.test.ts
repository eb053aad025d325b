/**
 * The targets bench:loop prints are judged from the cells' figures by the issue's rules:
 * a fault costs LoopX at most one slice beyond its no-fault run of the same task, and LoopX
 * asks people no more than the oracle, which asks only what the task's gates need.
 */
import { describe, expect, it } from "vitest";
import { type CellMetrics, pastBudget } from "../../bench/loop/cell-metrics.ts";
import { type CellResult, renderTable, targets, verdict } from "../../bench/loop/loop-table.ts";
import { noMetrics } from "./no-metrics.ts";

function metrics(over: Partial<CellMetrics> = {}): CellMetrics {
  return noMetrics({
    landed: 3,
    total: 3,
    slices: 5,
    wastedSlices: 1,
    billedMinutes: 70,
    tokens: 112_000,
    usd: 0.9,
    pullsOpened: 3,
    personActs: 6,
    personMinutes: 42,
    ...over,
  });
}

function cell(
  task: string,
  fault: string,
  arms: Record<string, CellMetrics>,
  profile = "competent",
): CellResult {
  return {
    cell: `${task} · ${profile} · ${fault}`,
    task,
    profile,
    fault,
    byArm: new Map(Object.entries(arms)),
  };
}
const target = (results: CellResult[], starts: string) => {
  const found = targets(results).find((t) => t.what.startsWith(starts));
  if (!found) throw new Error(`no target starting "${starts}"`);
  return found;
};

const calm = cell("csv", "none", { oracle: metrics(), loopx: metrics(), b1: metrics() });

describe("bench:loop targets", () => {
  it("a fault may cost one slice per strike, and only against the same task's no-fault run", () => {
    const killed = { faults: ["agent job 2 killed mid-slice"] };
    const one = cell("csv", "runner-killed", { loopx: metrics({ ...killed, slices: 6 }) });
    expect(target([calm, one], "LoopX recovers")).toMatchObject({
      met: true,
      value: "csv runner-killed: +1 for 1",
    });
    const two = cell("csv", "runner-killed", { loopx: metrics({ ...killed, slices: 7 }) });
    expect(target([calm, two], "LoopX recovers").met).toBe(false);
    // Recovering means landing everything, whatever it cost.
    const lost = cell("csv", "webhook-lost", {
      loopx: metrics({ faults: ["webhook pull_request.closed lost"], landed: 2 }),
    });
    expect(target([calm, lost], "LoopX recovers")).toMatchObject({
      met: false,
      value: "csv webhook-lost: +0 for 1, 2/3 landed",
    });
    // Recovering means putting right what the fault did, too.
    const edited = cell("csv", "sticky-edited", {
      loopx: metrics({
        faults: ["the maintainer rewrote the status comment"],
        unrecovered: ["the status comment still holds the person's text"],
      }),
    });
    expect(target([calm, edited], "LoopX recovers")).toMatchObject({
      met: false,
      value:
        "csv sticky-edited: +0 for 1, not recovered: the status comment still holds the person's text",
    });
    // A fault that never struck tests nothing.
    const idle = cell("csv", "app-restarted", { loopx: metrics() });
    expect(target([calm, idle], "LoopX recovers")).toMatchObject({
      met: false,
      value: "csv app-restarted: the fault never struck",
    });
    expect(target([calm], "LoopX recovers").met).toBeNull();
  });

  it("LoopX asks people no more than the oracle where both land everything", () => {
    expect(target([calm], "person-acts").met).toBe(true);
    const more = cell("ini", "none", { oracle: metrics(), loopx: metrics({ personActs: 7 }) });
    expect(target([calm, more], "person-acts")).toMatchObject({
      met: false,
      value: "1 of 2 (more in ini · competent · none)",
    });
    // A cell LoopX did not land is the landing target's to judge, not this one's.
    const short = cell("ini", "none", {
      oracle: metrics(),
      loopx: metrics({ personActs: 9, landed: 2 }),
    });
    expect(target([calm, short], "person-acts").value).toBe("1 of 1");
  });

  it("judges injected cells whatever their fault, and duplicates where every todo landed", () => {
    const planted = cell("csv", "none", { loopx: metrics({ injectedLanded: true }) }, "injected");
    expect(target([calm, planted], "0 injected")).toMatchObject({ value: "1 of 1", met: false });
    // An ablation that played it is shown beside and judged by nothing: LoopX is the target.
    const ablated = cell(
      "csv",
      "none",
      {
        loopx: metrics({ injectedLanded: false }),
        "loopx-without-gates": metrics({ injectedLanded: true }),
      },
      "injected",
    );
    expect(target([calm, ablated], "0 injected")).toMatchObject({
      value: "0 of 1; without gates 1 of 1",
      met: true,
    });
    const stuck = cell("csv", "none", { loopx: metrics({ landed: 1, pullsUnmerged: 1 }) }, "stuck");
    expect(target([calm, stuck], "LoopX opens no duplicate")).toMatchObject({
      value: "0 unmerged in 1 cells",
      met: true,
    });
    const twice = cell("csv", "webhook-lost", {
      loopx: metrics({ pullsOpened: 4, pullsUnmerged: 1 }),
    });
    expect(target([calm, twice], "LoopX opens no duplicate").met).toBe(false);
    const echoed = cell("csv", "webhook-duplicated", { loopx: metrics({ duplicateComments: 1 }) });
    expect(target([calm], "LoopX posts no duplicate comments")).toMatchObject({
      value: "0 in 1 cells",
      met: true,
    });
    expect(target([calm, echoed], "LoopX posts no duplicate comments")).toMatchObject({
      value: "1 in 2 cells",
      met: false,
    });
  });

  it("judges spend past budget in the cells that set one, B1's beside LoopX's", () => {
    expect(target([calm], "0 spend past budget")).toMatchObject({
      value: "no budget cell in this run",
      met: null,
    });
    const kept = cell(
      "csv",
      "none",
      { b1: metrics({ usdPastBudget: 3.42 }), loopx: metrics({ usdPastBudget: 0, landed: 1 }) },
      "overspending",
    );
    expect(target([calm, kept], "0 spend past budget")).toMatchObject({
      value: "LoopX $0.00 in 1 cell, B1 $3.42",
      met: true,
    });
    // The ablation without budgets is shown beside, never judged.
    const ablated = cell(
      "csv",
      "none",
      {
        b1: metrics({ usdPastBudget: 3.42 }),
        loopx: metrics({ usdPastBudget: 0, landed: 1 }),
        "loopx-without-budgets": metrics({ usdPastBudget: 2.5 }),
      },
      "overspending",
    );
    expect(target([calm, ablated], "0 spend past budget")).toMatchObject({
      value: "LoopX $0.00 in 1 cell, B1 $3.42, LoopX without budgets $2.50",
      met: true,
    });
    const overran = cell("csv", "none", { loopx: metrics({ usdPastBudget: 0.01 }) }, "flaky");
    expect(target([calm, kept, overran], "0 spend past budget")).toMatchObject({
      value: "LoopX $0.01 in 2 cells, B1 $3.42",
      met: false,
    });
    // Landing more by spending what the owners did not approve is no win.
    expect(renderTable([kept], ["b1", "loopx"])).toContain("$3.42 past budget");
    expect(verdict(kept.byArm.get("loopx"), kept.byArm.get("b1"))).toBe("win");
    expect(verdict(kept.byArm.get("b1"), kept.byArm.get("loopx"))).toBe("loss");
  });

  it("shows when each arm was done, and a fault's delay against the same arm with no fault", () => {
    const base = cell("csv", "none", {
      loopx: metrics({ doneAfterMinutes: 490, requests: 270, contentRequests: 18 }),
      b1: metrics({ doneAfterMinutes: 471, usdWaiting: 0.016, usdAfterDone: 0.712 }),
    });
    const killed = cell("csv", "runner-killed", {
      loopx: metrics({ doneAfterMinutes: 517, requests: 300, contentRequests: 18 }),
      b1: metrics({ landed: 2, doneAfterMinutes: null }),
    });
    const table = renderTable([base, killed], ["b1", "loopx"]).split("\n");
    const row = (name: string) => table.find((l) => l.startsWith(`| ${name} |`)) ?? "";
    const [b1Calm, loopxCalm] = row("csv · competent · none").split(" | ").slice(1, 3);
    expect(loopxCalm).toContain("done at 8.2 h<br>");
    expect(loopxCalm).toContain("90 requests (6 creating content) per landed todo");
    expect(b1Calm).toContain("$0.02 waiting · $0.71 after done");
    const [b1Killed, loopxKilled] = row("csv · competent · runner-killed").split(" | ").slice(1, 3);
    // 517 - 490 minutes: the fault's cost in time, against LoopX's own no-fault run.
    expect(loopxKilled).toContain("done at 8.6 h (+27 min against no fault)");
    expect(loopxKilled).toContain("100 requests (6 creating content) per landed todo");
    expect(b1Killed).toContain("not all landed");
    expect(b1Killed).toContain("$0.00 waiting · — after done");
  });

  it("counts spend past a budget in whole cents of metered tokens", () => {
    // $3 buys exactly 1,000,000 tokens at $3 per million: not a cent past it.
    expect(pastBudget(1_000_000, 3)).toBe(0);
    expect(pastBudget(1_000_001, 3)).toBe(0);
    expect(pastBudget(1_003_334, 3)).toBe(0.01);
    expect(pastBudget(2_000_000, 3)).toBe(3);
    expect(pastBudget(10, 3)).toBe(0);
  });

  it("judges sanity and cost on no-fault cells only, and shows an arm a cell did not run as —", () => {
    const costly = cell("csv", "runner-killed", {
      b1: metrics({ landed: 0 }),
      oracle: metrics(),
      loopx: metrics({ usd: 9, faults: ["agent job 2 killed mid-slice"], slices: 6 }),
    });
    expect(target([calm, costly], "sanity").value).toBe("1 of 1");
    // An injected agent has no fault either, but it is not the baseline B1 is judged on.
    const injected = cell("csv", "none", { b1: metrics({ landed: 0 }) }, "injected");
    expect(target([calm, injected], "sanity")).toMatchObject({ value: "1 of 1", met: true });
    expect(target([calm, costly], "USD per landed todo").value).toBe("LoopX 1.00×, B1 1.00×");
    const onlyLoopx = cell("csv", "webhook-lost", { loopx: metrics() });
    expect(renderTable([onlyLoopx], ["b1", "oracle", "loopx"]).split("\n")[2]).toContain(
      "| csv · competent · webhook-lost | — | — | 3/3 landed",
    );
  });
});
