/**
 * Each benchmark module's figures as rows of the one table, with their targets (the kernel
 * and the store here; the App's in sections-app.ts). A module that fails becomes one "not
 * measured" row: the rest of the table still prints.
 */
import { benchDecide } from "./kernel-decide.ts";
import type { BenchPostgres } from "./pg.ts";
import { median } from "./stats.ts";
import { benchClaims } from "./store-claims.ts";
import { benchSweep, SWEEP_SIZES } from "./sweep.ts";
import type { Row } from "./table.ts";

export const ms = (n: number, digits = 1) => `${n.toFixed(digits)} ms`;
export const row = (
  section: string,
  figure: string,
  value: string,
  target = "—",
  met: boolean | null = null,
): Row => ({
  section,
  figure,
  value,
  target,
  met,
});

export async function guarded(section: string, body: () => Promise<Row[]>): Promise<Row[]> {
  try {
    return await body();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return [row(section, "not measured", why.split("\n")[0]?.slice(0, 160) ?? "", "—", false)];
  }
}

export async function decideRows(): Promise<Row[]> {
  const section = "decide() (kernel, in process)";
  const rows: Row[] = [];
  for (const n of [10, 100, 1000]) {
    const r = await benchDecide(n);
    const label = `${n.toLocaleString("en")} todos / ${r.gates} gate${r.gates === 1 ? "" : "s"}`;
    rows.push(row(section, `p50, ${label}`, ms(r.p50Ms, 3)));
    rows.push(
      row(
        section,
        `p99, ${label} (wall; CPU beside it)`,
        `${ms(r.p99Ms, 3)} (${ms(r.cpuP99Ms, 3)} CPU)`,
        n === 1000 ? "< 1 ms" : "—",
        n === 1000 ? r.p99Ms < 1 : null,
      ),
    );
  }
  return rows;
}

export async function claimRows(pg: BenchPostgres, repeats = 3): Promise<Row[]> {
  const section = `tick claims (${pg.source})`;
  const runs = [];
  for (let i = 0; i < repeats; i++) runs.push(await benchClaims(await pg.freshDatabase("claims")));
  const first = runs[0];
  if (!first) return [];
  const perSec = median(runs.map((r) => r.claimsPerSec));
  const doubles = runs.reduce((n, r) => n + r.doubleClaims, 0);
  return [
    row(
      section,
      `claims/s, ${first.claimers}-way over ${first.goals} goals (median of ${runs.map((r) => r.claimsPerSec.toFixed(0)).join(", ")})`,
      perSec.toFixed(0),
      "≥ 300/s",
      perSec >= 300,
    ),
    row(
      section,
      `double claims (all ${repeats} runs)`,
      String(doubles),
      "exactly 0",
      doubles === 0,
    ),
    row(
      section,
      "bench process CPU per claim (drizzle, postgres.js, kernel)",
      ms(median(runs.map((r) => r.cpuMsPerClaim)), 2),
    ),
  ];
}

export async function sweepRows(pg: BenchPostgres): Promise<Row[]> {
  const section = `due sweep over goals (${pg.source})`;
  const rows: Row[] = [];
  const times: number[] = [];
  for (const n of SWEEP_SIZES) {
    const r = await benchSweep(await pg.freshDatabase(`sweep_${n}`), n);
    times.push(r.sweepMs);
    const scan =
      r.plan
        .find((l) => /on goals\b/.test(l))
        ?.trim()
        .replace(/\s+\(cost=.*$/, "") ?? "?";
    rows.push(
      row(
        section,
        `${n.toLocaleString("en")} goals (${r.due} due): one sweep of 20`,
        ms(r.sweepMs),
      ),
      row(
        section,
        `${n.toLocaleString("en")} goals: EXPLAIN of the sweep`,
        scan.replace(/^->\s*/, ""),
        "index, no seq scan on goals",
        r.usesIndex && !r.seqScanOnGoals,
      ),
    );
  }
  const [small, , large] = times;
  if (small !== undefined && large !== undefined) {
    rows.push(
      row(
        section,
        "time ratio, 100k goals : 1k goals",
        `${(large / small).toFixed(2)}×`,
        "flat (≈ 1×)",
      ),
    );
  }
  return rows;
}
