/** What the repository and installation ceilings leave for one goal (the shared cost ledger). */
import { CostLimits, SharedAllowance } from "@loopx/core";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, rowsOf } from "./db.ts";
import * as s from "./schema/index.ts";

const Spent = z.object({
  usd: z.coerce.number(),
  tokens: z.coerce.number(),
  runner_minutes: z.coerce.number(),
  ticks: z.coerce.number(),
});
type Spent = z.infer<typeof Spent>;

async function spentWhere(db: Db, where: ReturnType<typeof sql>): Promise<Spent> {
  const [row] = rowsOf(
    await db.execute(sql`
      SELECT coalesce(sum((t.cost->>'usd')::float8), 0) AS usd,
             coalesce(sum((t.cost->>'tokens')::bigint), 0) AS tokens,
             coalesce(sum((t.cost->>'runnerMinutes')::float8), 0) AS runner_minutes,
             count(*) AS ticks
      FROM ticks t JOIN goals g ON g.id = t.goal_id
      WHERE t.finished_at IS NOT NULL AND ${where}`),
  );
  return Spent.parse(row);
}

function left(ceiling: CostLimits, spent: Spent): CostLimits {
  const out: CostLimits = {};
  if (ceiling.usd !== undefined) out.usd = Math.max(0, ceiling.usd - spent.usd);
  if (ceiling.tokens !== undefined) out.tokens = Math.max(0, ceiling.tokens - spent.tokens);
  if (ceiling.runnerMinutes !== undefined) {
    out.runnerMinutes = Math.max(0, ceiling.runnerMinutes - spent.runner_minutes);
  }
  if (ceiling.ticks !== undefined) out.ticks = Math.max(0, ceiling.ticks - spent.ticks);
  return out;
}

/**
 * Sums finished ticks' cost per repository and per installation and subtracts it from the
 * installation's ceilings (`spend_ceiling`, and `repo_spend_ceiling` for each repository).
 * A level without a ceiling is absent: no limit there.
 */
export async function sharedAllowance(db: Db, goalId: string): Promise<SharedAllowance> {
  const [goal] = await db
    .select({ repoId: s.goals.repoId, installationId: s.goals.installationId })
    .from(s.goals)
    .where(eq(s.goals.id, goalId));
  if (!goal) throw new Error(`no goal ${goalId}: cannot compute its shared allowance`);
  const [inst] = await db
    .select({ spend: s.installations.spendCeiling, repo: s.installations.repoSpendCeiling })
    .from(s.installations)
    .where(eq(s.installations.id, goal.installationId));
  const installationCeiling = inst?.spend == null ? null : CostLimits.parse(inst.spend);
  const repoCeiling = inst?.repo == null ? null : CostLimits.parse(inst.repo);
  const allowance: SharedAllowance = {};
  if (repoCeiling) {
    allowance.repository = left(repoCeiling, await spentWhere(db, sql`g.repo_id = ${goal.repoId}`));
  }
  if (installationCeiling) {
    allowance.installation = left(
      installationCeiling,
      await spentWhere(db, sql`g.installation_id = ${goal.installationId}`),
    );
  }
  return SharedAllowance.parse(allowance);
}
