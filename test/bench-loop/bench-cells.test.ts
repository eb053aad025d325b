/**
 * Which arm plays which cell of `bench:loop`: every arm the no-fault cells, only the arms
 * that run two goals the shared-file pair, each fault cell the arms it names, and an
 * ablation only the cells that name it. Played by a stand-in that records, not a world.
 */
import { describe, expect, it } from "vitest";
import type { Arm } from "../../bench/loop/arms/arm-types.ts";
import { cellName, FAULT_CELLS } from "../../bench/loop/play-cell.ts";
import { benchLoop, renderResults } from "../../bench/loop/run-loop.ts";
import { noMetrics } from "./no-metrics.ts";

const arm = (name: string, extra: Partial<Arm> = {}): Arm => ({
  name,
  ...extra,
  run: () => Promise.reject(new Error("the stand-in plays no world")),
});

const NOTHING = noMetrics();

const ARMS = [
  arm("b1"),
  arm("oracle", { pairs: true }),
  arm("loopx", { pairs: true }),
  arm("loopx-without-budgets", { pairs: true, ablates: "budgets" }),
  arm("loopx-without-backoff", { pairs: true, ablates: "backoff" }),
  arm("loopx-without-gates", { pairs: true, ablates: "gates" }),
  arm("loopx-without-leases", { pairs: true, ablates: "leases" }),
  arm("loopx-without-fencing", { pairs: true, ablates: "fencing" }),
];

async function played(only: string[]): Promise<Map<string, string[]>> {
  const seen = new Map<string, string[]>();
  await benchLoop({
    quick: false,
    only,
    arms: ARMS,
    play: async (cell, a) => {
      const name = cellName(cell);
      seen.set(name, [...(seen.get(name) ?? []), a.name]);
      return NOTHING;
    },
  });
  return seen;
}

describe("bench:loop's cells and arms", () => {
  it("plays the pair with the arms that run two goals, and no ablation", async () => {
    expect(await played(["textkit-slug"])).toEqual(
      new Map([["textkit-slug + textkit-wrap · competent · none", ["oracle", "loopx"]]]),
    );
  });

  it("plays an ablation only in the cells that name it", async () => {
    const seen = await played(["csv-quoting"]);
    expect(seen.get("csv-quoting · competent · none")).toEqual(["b1", "oracle", "loopx"]);
    const named = FAULT_CELLS.filter((f) => f.arms.includes("loopx-without-budgets"));
    expect(named.length).toBeGreaterThan(0);
    const withAblation = [...seen].filter(([, arms]) => arms.includes("loopx-without-budgets"));
    expect(withAblation.map(([cell]) => cell)).toEqual([
      "csv-quoting · overspending · none · budget $3",
    ]);
    const withoutBackoff = [...seen].filter(([, arms]) => arms.includes("loopx-without-backoff"));
    expect(withoutBackoff.map(([cell]) => cell).sort()).toEqual([
      "csv-quoting · competent · actions-outage",
      "csv-quoting · stuck · none",
    ]);
    const withoutGates = [...seen].filter(([, arms]) => arms.includes("loopx-without-gates"));
    expect(withoutGates.map(([cell]) => cell)).toEqual(["csv-quoting · injected · none"]);
    const withoutLeases = [...seen].filter(([, arms]) => arms.includes("loopx-without-leases"));
    expect(withoutLeases.map(([cell]) => cell).sort()).toEqual([
      "csv-quoting · competent · lease-expired",
      "csv-quoting · competent · report-lost",
    ]);
    for (const f of FAULT_CELLS.filter((x) => x.task === "csv-quoting")) {
      const cell = [...seen].find(([name]) =>
        name.includes(` · ${f.profile ?? "competent"} · ${f.fault}`),
      );
      expect(cell?.[1], `${f.fault} ${f.profile ?? ""}`).toEqual(
        f.arms.filter((a) => ARMS.some((x) => x.name === a)),
      );
    }
  });

  it("adds an ablation that names a no-fault cell to that cell's row, played once per arm", async () => {
    const seen = new Map<string, string[]>();
    const bench = await benchLoop({
      quick: false,
      only: ["ini-config"],
      arms: ARMS,
      play: async (cell, a) => {
        const name = cellName(cell);
        seen.set(name, [...(seen.get(name) ?? []), a.name]);
        return NOTHING;
      },
    });
    const calm = "ini-config · competent · none";
    expect(seen.get(calm)).toEqual(["b1", "oracle", "loopx", "loopx-without-gates"]);
    const rows = bench.results.filter((r) => r.cell === calm);
    expect(rows.map((r) => [...r.byArm.keys()])).toEqual([
      ["b1", "oracle", "loopx", "loopx-without-gates"],
    ]);
    expect(bench.arms).toContain("loopx-without-gates");
  });

  it("notes each ablation's record of a fault where it differs from LoopX's, and only there", async () => {
    const bench = await benchLoop({
      quick: false,
      only: ["csv-quoting", "utc-date-math"],
      arms: ARMS,
      // Without fencing, the csv-quoting re-run is taken; everywhere else every arm records alike.
      play: async (cell, a) =>
        noMetrics({
          faults: [
            `${cell.fault} struck`,
            ...(cell.fault === "report-rerun"
              ? [
                  a.name === "loopx-without-fencing" && cell.task.spec.id === "csv-quoting"
                    ? "re-run taken"
                    : "re-run refused",
                ]
              : []),
          ],
        }),
    });
    const text = renderResults(bench, false);
    const notes = text.split("\n").filter((l) => l.includes(": LoopX — "));
    expect(notes).toEqual([
      "- csv-quoting · competent · report-rerun: LoopX — report-rerun struck; re-run refused. loopx-without-fencing — report-rerun struck; re-run taken.",
    ]);
  });
});
