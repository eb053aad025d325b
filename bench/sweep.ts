/**
 * How cost grows: the App's due sweep (takeDueDispatches: the goals whose tick falls due,
 * 20 at a time) over 1k, 10k and 100k goals on real PostgreSQL — its time (median over
 * repeats, each rolled back so every repeat sees the same goals) and its plan (EXPLAIN of
 * the exact candidate query: index use, not a scan of goals). Figures, not pass criteria.
 *
 * The goals are copies of one goal made by the store (createGoal), written with one INSERT …
 * SELECT: 5% are due (so every sweep takes its full 20), the rest wake later in the week or
 * are done or paused, as in a deployment where most goals wait.
 *
 *   npx tsx bench/sweep.ts      # BENCH_DATABASE_URL / DATABASE_URL, else a throwaway server
 */
import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";
import { createGoal } from "@loopx/core";
import { openStore, type Store } from "@loopx/store";
import { dbOf, dueCandidatesQuery, sql, takeDueDispatches } from "@loopx/store/testing";
import { z } from "zod";
import { benchPostgres } from "./pg.ts";
import { median } from "./stats.ts";

export const SWEEP_SIZES = [1_000, 10_000, 100_000] as const;
const REPEATS = 15;

export interface SweepBench {
  goals: number;
  due: number;
  /** Median wall time of one sweep (20 goals taken and marked, then rolled back). */
  sweepMs: number;
  /** The candidate query's plan, one line per node. */
  plan: string[];
  /** Whether the plan reads goals through an index (and never scans the table). */
  usesIndex: boolean;
  seqScanOnGoals: boolean;
}

async function seed(store: Store, goals: number): Promise<void> {
  const made = await store.createGoal((now) =>
    createGoal(
      {
        id: randomUUID(),
        installationId: 1,
        repo: { id: 1, ownerId: 1, owner: "bench", name: "sweep" },
        issue: { id: 1, number: 1 },
        objective: {
          title: "sweep",
          body: "",
          author: "bench",
          authorTrusted: true,
          snapshotAt: now,
        },
        owners: ["bench"],
        harness: "shell",
        todos: [{ title: "one" }],
      },
      { actor: { kind: "app" }, now, newId: randomUUID },
    ),
  );
  if (!made.ok) throw new Error(made.refusal.message);
  // Copies of the template row: every 20th due (about an hour ago, each at its own instant,
  // as wakes are), the rest due within the week, done or paused. Issue numbers stay unique
  // per repository.
  await dbOf(store).execute(sql`
    INSERT INTO goals
    SELECT gen_random_uuid(), g.installation_id, g.repo_id + (n % 50), g.repo_owner_id,
           g.repo_owner, g.repo_name, g.issue_id + n, g.issue_number + n,
           CASE WHEN n % 10 = 3 THEN 'done' WHEN n % 10 = 7 THEN 'paused' ELSE 'active' END,
           g.status_reason, g.harness, g.validation_command, g.version,
           CASE WHEN n % 20 = 0 THEN now() - interval '1 hour' - n * interval '1 millisecond'
                ELSE now() + (n % 10080) * interval '1 minute' END,
           g.backoff_level, g.backoff, g.replan_requested, g.focus, g.objective, g.owners,
           g.budget, g.tick_cap, g.quota, g.granted_scopes, g.counters, g.spent,
           g.created_at, g.updated_at
    FROM goals g, generate_series(1, ${goals - 1}) AS n
    WHERE g.id = ${made.state.goal.id}`);
  await dbOf(store).execute(
    sql`UPDATE goals SET next_wake_at = now() + interval '1 day' WHERE id = ${made.state.goal.id}`,
  );
  await dbOf(store).execute(sql`VACUUM ANALYZE goals`);
}

const PlanRow = z.object({ "QUERY PLAN": z.string() });
const Count = z.object({ n: z.coerce.number() });

class Rollback extends Error {}

async function sweepOnce(store: Store): Promise<number> {
  const started = performance.now();
  let taken = 0;
  try {
    await dbOf(store).transaction(async (tx) => {
      taken = (await takeDueDispatches(tx, { limit: 20 })).length;
      throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  if (taken === 0) throw new Error("the sweep found no due goal");
  return performance.now() - started;
}

export async function benchSweep(url: string, goals: number): Promise<SweepBench> {
  const store = await openStore({ databaseUrl: url, maxConnections: 2 });
  try {
    await store.migrate();
    await seed(store, goals);
    const rows = (await dbOf(store).execute(sql`
      SELECT count(*) AS n FROM goals WHERE status = 'active' AND next_wake_at <= now()`)) as unknown[];
    const due = Count.parse(rows[0]).n;
    await sweepOnce(store); // warm: plan cache, buffers
    const times: number[] = [];
    for (let i = 0; i < REPEATS; i++) times.push(await sweepOnce(store));
    const explained = (await dbOf(store).execute(
      sql`EXPLAIN ${dueCandidatesQuery({ limit: 20 })}`,
    )) as unknown[];
    const plan = explained.map((r) => PlanRow.parse(r)["QUERY PLAN"]);
    const onGoals = plan.filter((l) => /\bon goals\b/.test(l));
    return {
      goals,
      due,
      sweepMs: median(times),
      plan,
      // A bitmap heap scan reads the rows a Bitmap Index Scan found: an index plan too (at
      // 1,000 goals PostgreSQL may pick it over a plain index scan).
      usesIndex: onGoals.some((l) => /Index( Only)? Scan|Bitmap Heap Scan/.test(l)),
      seqScanOnGoals: onGoals.some((l) => /Seq Scan/.test(l)),
    };
  } finally {
    await store.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const pg = await benchPostgres();
  if (!pg) throw new Error("no PostgreSQL: set BENCH_DATABASE_URL or install postgresql");
  try {
    for (const n of SWEEP_SIZES) {
      const r = await benchSweep(await pg.freshDatabase(`sweep_${n}`), n);
      console.log(
        `${r.goals} goals (${r.due} due): sweep ${r.sweepMs.toFixed(2)} ms; index ${r.usesIndex}, seq scan on goals ${r.seqScanOnGoals}`,
      );
      for (const l of r.plan) console.log(`    ${l}`);
    }
  } finally {
    await pg.stop();
  }
}
