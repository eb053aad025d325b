/**
 * Store claim throughput on real PostgreSQL: 32 claimers (one session each) draining 1,000
 * due goals through claimNextDue with the kernel's claim transition. Reports claims/s and
 * double claims (target ≥ 300/s, exactly 0). Figures, not pass criteria.
 *
 *   npx tsx bench/store-claims.ts            # starts a throwaway server (needs PostgreSQL binaries)
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/store-claims.ts   # an existing, empty database
 */
import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";
import { claimTodo, createGoal, type GoalState } from "@loopx/core";
import { openStore as defaultOpen, type Store } from "@loopx/store";
import { startPostgres } from "../test/support/postgres-server.ts";

export interface ClaimBench {
  claimsPerSec: number;
  /** This process's CPU (drizzle, postgres.js, the kernel) per claim: steadier than claims/s. */
  cpuMsPerClaim: number;
  doubleClaims: number;
  claimers: number;
  goals: number;
}

function create(i: number) {
  return (now: Date) =>
    createGoal(
      {
        id: randomUUID(),
        installationId: 1,
        repo: { id: 1 + (i % 20), ownerId: 1, owner: "bench", name: `repo-${i % 20}` },
        issue: { id: 1_000_000 + i, number: 1 + i },
        objective: {
          title: `goal ${i}`,
          body: "",
          author: "bench",
          authorTrusted: true,
          snapshotAt: now,
        },
        owners: ["bench"],
        harness: "shell",
        todos: [{ title: "the one task" }],
      },
      { actor: { kind: "app" }, now, newId: () => randomUUID() },
    );
}

function claim(state: GoalState, now: Date, agent: string) {
  const tickId = randomUUID();
  return claimTodo(
    state,
    { tickId, leaseToken: randomUUID(), agent, harness: "shell", run: null, leaseTtlMs: 900_000 },
    { actor: { kind: "agent", tickId, harness: "shell" }, now, newId: () => randomUUID() },
  );
}

export async function seedClaimGoals(store: Store, goals: number): Promise<void> {
  for (let i = 0; i < goals; i += 50) {
    const batch = Array.from({ length: Math.min(50, goals - i) }, (_, j) =>
      store.createGoal(create(i + j)),
    );
    for (const r of await Promise.all(batch)) if (!r.ok) throw new Error(r.refusal.message);
  }
}

export async function benchClaims(
  pgUrl?: string,
  opts: {
    claimers?: number;
    goals?: number;
    openStore?: typeof defaultOpen;
    /** Grows each seeded goal before the drain (rows written straight to `url`). */
    history?: (url: string, goalIds: string[]) => Promise<void>;
    /**
     * Claims each session makes, on goals seeded for it, before the clock starts, so its
     * statements are prepared and planned as a serving App's long-lived connections have
     * them. Default 0: nothing of the claims' own statements is warmed.
     */
    warmup?: number;
  } = {},
): Promise<ClaimBench> {
  const openStore = opts.openStore ?? defaultOpen;
  const claimers = opts.claimers ?? 32;
  const goals = opts.goals ?? 1000;
  const warmup = opts.warmup ?? 0;
  const server = pgUrl ? null : await startPostgres({ database: "loopx_bench" });
  const url = pgUrl ?? server?.url ?? "";
  const admin = await openStore({ databaseUrl: url, maxConnections: 16 });
  try {
    await admin.migrate();
    await seedClaimGoals(admin, goals + claimers * warmup);
    if (opts.history) {
      const repos = Array.from({ length: 20 }, (_, i) => i + 1);
      await opts.history(url, await admin.goalIdsByRepos(repos));
    }
    return await drainClaims(url, claimers, goals, openStore, warmup);
  } finally {
    await admin.close();
    await server?.stop();
  }
}

/**
 * `claimers` sessions (one connection each) claim until none finds due work; each first makes
 * `warmup` claims, uncounted, before the clock starts.
 */
export async function drainClaims(
  url: string,
  claimers: number,
  goals: number,
  openStore: typeof defaultOpen = defaultOpen,
  warmup = 0,
): Promise<ClaimBench> {
  const sessions: Store[] = [];
  try {
    for (let i = 0; i < claimers; i++) {
      sessions.push(await openStore({ databaseUrl: url, maxConnections: 1 }));
    }
    // Connected before the clock starts, as a serving App's pool is: postgres.js connects on
    // first use, and 32 connection setups (a backend each, postgres.js's type query) are not
    // claims. The claims' own statements are warmed only as far as `warmup` asks.
    await Promise.all(sessions.map((s) => s.databaseNow()));
    // Every claim, warm-up included, counts towards double claims; only the drain's are timed.
    const claims = new Map<string, number>();
    const count = (goalId: string) => claims.set(goalId, (claims.get(goalId) ?? 0) + 1);
    await Promise.all(
      sessions.map(async (s, i) => {
        for (let n = 0; n < warmup; n++) {
          const r = await s.claimNextDue(`warmup-${i}`, claim);
          if (!r.ok) throw new Error(`warm-up claim ${n + 1} of claimer ${i} found no due goal`);
          count(r.goalId);
        }
      }),
    );
    let drained = 0;
    const started = performance.now();
    const cpu = process.cpuUsage();
    await Promise.all(
      sessions.map(async (s, i) => {
        for (;;) {
          const r = await s.claimNextDue(`claimer-${i}`, claim);
          if (!r.ok) return;
          count(r.goalId);
          drained++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const doubleClaims = [...claims.values()].reduce((n, c) => n + (c - 1), 0);
    const seeded = goals + claimers * warmup;
    if (claims.size !== seeded) {
      throw new Error(
        `only ${claims.size} of ${seeded} goals were claimed: the drain stopped early`,
      );
    }
    return {
      claimsPerSec: drained / seconds,
      cpuMsPerClaim: (used.user + used.system) / 1000 / drained,
      doubleClaims,
      claimers,
      goals,
    };
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const r = await benchClaims(process.env.BENCH_DATABASE_URL);
  console.log(
    `claims/s, ${r.claimers} claimers over ${r.goals} goals (PostgreSQL): ${r.claimsPerSec.toFixed(0)}   target ≥ 300/s`,
  );
  console.log(`double claims: ${r.doubleClaims}   target exactly 0`);
}
