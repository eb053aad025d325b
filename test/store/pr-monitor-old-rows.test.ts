/**
 * A PR monitor stored before repairs were counted per failure signature: its jsonb has the
 * PR's total `repairAttempts`, checks without app id or signature, and no per-signature
 * counts. It must load as it is (no SQL migration: the column is jsonb and every new field
 * has a default), and its total must still count.
 */

import { randomUUID } from "node:crypto";
import {
  AWAITING_PULL_REQUEST,
  type DomainEvent,
  observePullRequest,
  type TransitionResult,
} from "@loopx/core";
import { openStore, type Store } from "@loopx/store";
import { dbOf, eq, tables } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freshDatabase } from "../support/databases.ts";
import { goalState } from "./fixtures.ts";

const serverUrl = inject("pgUrl");

/** The monitor as the previous release wrote it. */
const OLD_MONITOR = {
  watching: true,
  mergeable: true,
  checks: [{ name: "ci", status: "failure", url: null, runId: null }],
  checksSha: "abcdef1",
  required: ["ci"],
  fingerprints: ["pr:5:repair:abcdef1:ci"],
  repairAttempts: 2,
  todos: [],
};

describe.skipIf(!serverUrl)(
  `old PR monitor rows on real PostgreSQL${serverUrl ? "" : ` (skipped: ${inject("pgSkipReason")})`}`,
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

    it("load with their total, and that total counts for the next failure's signature", async () => {
      const created = await store.createGoal((now): TransitionResult => {
        const state = goalState(now);
        // T1 is finished and waits for #5: its PR's failures are for repair todos.
        const t1 = state.todos[0];
        if (t1) Object.assign(t1, { status: "blocked", blockedReason: AWAITING_PULL_REQUEST });
        const event: DomainEvent = {
          type: "goal.created",
          goalId: state.goal.id,
          actor: { kind: "app" },
          at: now,
          data: {},
        };
        return { ok: true, state, events: [event], effects: [] };
      });
      if (!created.ok) throw new Error(created.refusal.message);
      const id = created.state.goal.id;
      await dbOf(store)
        .update(tables.pullRequests)
        .set({ monitor: OLD_MONITOR })
        .where(eq(tables.pullRequests.goalId, id));

      const loaded = await store.loadGoal(id);
      const monitor = loaded?.pullRequests[0]?.monitor;
      expect(monitor?.repairAttempts).toBe(2);
      expect(monitor?.repairs).toEqual([]);
      expect(monitor?.checks[0]).toMatchObject({ name: "ci", appId: null, failure: null });

      // One attempt is left of the default three; the new head's failure spends it.
      const r = await store.apply(id, (s, now) =>
        observePullRequest(
          s,
          {
            number: 5,
            state: "open",
            headSha: "1234567",
            mergeable: true,
            checks: { sha: "1234567", list: [{ name: "ci", status: "failure", output: "boom" }] },
          },
          { actor: { kind: "app" }, now, newId: () => randomUUID() },
        ),
      );
      expect(r.ok).toBe(true);
      const after = await store.loadGoal(id);
      expect(after?.todos.filter((t) => t.kind === "repair")).toHaveLength(1);
      expect(after?.pullRequests[0]?.monitor.repairAttempts).toBe(3);
      expect(after?.pullRequests[0]?.monitor.repairs).toEqual([
        { key: expect.stringMatching(/^ci\|status\|line:/), attempts: 3, asked: false },
      ]);
    });
  },
);
