/** A created fixture goal and row counts, shared by the conformance modules. */
import type { GoalState } from "@loopx/core";
import type { Store } from "@loopx/store";
import { dbOf, eq, sql, tables } from "@loopx/store/testing";
import { createFixture } from "./fixtures.ts";

export async function createdGoal(
  store: Store,
  over: Parameters<typeof createFixture>[0] = {},
): Promise<GoalState> {
  const r = await store.createGoal(createFixture(over));
  if (!r.ok) throw new Error(`fixture goal refused: ${r.refusal.message}`);
  return r.state;
}

export async function rowCount(
  store: Store,
  table: "events" | "outbox",
  goalId: string,
): Promise<number> {
  const t = table === "events" ? tables.events : tables.outbox;
  const rows = await dbOf(store)
    .select({ n: sql<number>`count(*)::int` })
    .from(t)
    .where(eq(t.goalId, goalId));
  return rows[0]?.n ?? 0;
}
