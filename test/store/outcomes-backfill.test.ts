/**
 * Goals that ran before the outcome totals existed get them from their tables, once, in the
 * migration that added them. The count must be the one the kernel keeps: a goal built by
 * transitions has its totals wiped to the column's default, the migration's statement runs
 * again, and the totals come back equal.
 */

import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  type Actor,
  addTodo,
  approveGate,
  completeTodoByHuman,
  type DomainEvent,
  observePullRequest,
  openGate,
  rejectGate,
  type TransitionResult,
} from "@loopx/core";
import { openStore, type Store } from "@loopx/store";
import { dbOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freshDatabase } from "../support/databases.ts";
import { goalState } from "./fixtures.ts";

const serverUrl = inject("pgUrl");
const MIGRATION = resolve(import.meta.dirname, "../../migrations/0014_goal-outcomes.sql");
const APP: Actor = { kind: "app" };
const ALICE: Actor = { kind: "human", login: "alice", trusted: true };
const MALLORY: Actor = { kind: "human", login: "mallory", trusted: false };

/** The migration's backfill statement, as committed. */
function backfill(): string {
  const text = readFileSync(MIGRATION, "utf8");
  const statement = text.split("--> statement-breakpoint").find((s) => s.includes("UPDATE"));
  if (!statement) throw new Error(`${MIGRATION} has no backfill statement`);
  return statement;
}

describe.skipIf(!serverUrl)(
  `outcome totals backfilled on real PostgreSQL${serverUrl ? "" : ` (skipped: ${inject("pgSkipReason")})`}`,
  () => {
    let store: Store;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      if (!serverUrl) throw new Error("unreachable: skipped without a server");
      const db = await freshDatabase(serverUrl);
      drop = db.drop;
      store = await openStore({ databaseUrl: db.url });
      await store.migrate();
    });
    afterAll(async () => {
      await store.close();
      await drop();
    });

    it("count what the kernel counted: done todos, merged PRs, people's acts and decisions", async () => {
      const created = await store.createGoal((now): TransitionResult => {
        const state = goalState(now, { todos: 0 });
        const event: DomainEvent = {
          type: "goal.created",
          goalId: state.goal.id,
          // Made by hand, not by the kernel's commit: an act of nobody's, for both counts.
          actor: APP,
          at: now,
          data: {},
        };
        return { ok: true, state, events: [event], effects: [] };
      });
      if (!created.ok) throw new Error(created.refusal.message);
      const id = created.state.goal.id;
      const by = (actor: Actor, now: Date) => ({ actor, now, newId: () => randomUUID() });
      const steps: [Actor, Parameters<typeof store.apply>[1]][] = [
        [ALICE, (s, now) => addTodo(s, { title: "List the gears" }, by(ALICE, now))],
        [ALICE, (s, now) => addTodo(s, { title: "List the cogs" }, by(ALICE, now))],
        [APP, (s, now) => openGate(s, { question: "Deploy?", scopes: ["deploy"] }, by(APP, now))],
        [APP, (s, now) => openGate(s, { question: "Publish?", scopes: ["pub"] }, by(APP, now))],
        [MALLORY, (s, now) => approveGate(s, { gate: "G1" }, by(MALLORY, now))],
        [ALICE, (s, now) => approveGate(s, { gate: "G1" }, by(ALICE, now))],
        [ALICE, (s, now) => rejectGate(s, { gate: "G2", reason: "later" }, by(ALICE, now))],
        // T1's PR merges: T1 is done by its merge; T2 a writer marks done by hand.
        [
          APP,
          (s, now) =>
            observePullRequest(
              s,
              {
                number: 5,
                state: "merged",
                headSha: s.pullRequests[0]?.headSha ?? "",
                mergeCommitSha: "c".repeat(40),
              },
              by(APP, now),
            ),
        ],
        [ALICE, (s, now) => completeTodoByHuman(s, { todo: "T2" }, by(ALICE, now))],
      ];
      for (const [, step] of steps) {
        await store.apply(id, step);
        // Gates wait a measurable while between their question and the answer.
        await new Promise((r) => setTimeout(r, 20));
      }
      const kept = (await store.loadGoal(id))?.goal.outcomes;
      expect(kept).toMatchObject({ todosDone: 2, prsMerged: 1, personActs: 5, decisions: 2 });
      expect(kept?.waitedMs).toBeGreaterThan(0);

      await dbOf(store).execute(sql`UPDATE goals SET outcomes = '{}'::jsonb WHERE id = ${id}`);
      expect((await store.loadGoal(id))?.goal.outcomes).toMatchObject({ personActs: 0 });
      await dbOf(store).execute(sql.raw(backfill()));
      const counted = (await store.loadGoal(id))?.goal.outcomes;
      // The kernel reads the database clock to the millisecond; the backfill floors it.
      expect(counted).toMatchObject({ ...kept, waitedMs: expect.any(Number) });
      expect(Math.abs((counted?.waitedMs ?? 0) - (kept?.waitedMs ?? 0))).toBeLessThanOrEqual(2);
    });
  },
);
