import { openStore, type Store } from "@loopx/store";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { freshDatabase } from "../support/databases.ts";
import { fileIssue, keyedComments, label } from "../support/ops-steps.ts";

const serverUrl = inject("pgUrl");

/** Scenario: the app restarts between two events; everything it knew is still there. */
describe(`e2e: the app restarted between two events (${serverUrl ? "PostgreSQL" : "PGlite"})`, () => {
  let h: Harness;
  let store: Store | undefined;
  let drop = async () => {};
  beforeAll(async () => {
    if (serverUrl) {
      const db = await freshDatabase(serverUrl);
      drop = db.drop;
      store = await openStore({ databaseUrl: db.url });
    }
    h = await startHarness(store ? { store } : {});
  });
  afterAll(async () => {
    await h.close();
    await store?.close();
    await drop();
  });

  it("a goal started before the restart is found after it; a new one starts beside it", async () => {
    const first = await fileIssue(h, "wendy", "Shrink widget images");
    await label(h, "wendy", first);
    await h.settle();
    const before = await h.store.findGoalByIssue(h.repo.id, first);
    expect(before?.goal.version).toBe(1);

    await h.restart();

    // The same label again: the goal is found in the store, never made twice.
    await h.as("alice").rest.issues.removeLabel({
      owner: "acme",
      repo: "widgets",
      issue_number: first,
      name: "loopx",
    });
    await label(h, "alice", first);
    const second = await fileIssue(h, "alice", "Cache widget layouts");
    await label(h, "alice", second);
    await h.settle();

    const after = await h.store.findGoalByIssue(h.repo.id, first);
    expect(after?.goal.id).toBe(before?.goal.id);
    expect(after?.goal.objective).toEqual(before?.goal.objective);
    const other = await h.store.findGoalByIssue(h.repo.id, second);
    expect(other?.goal.status).toBe("active");
    expect(other?.goal.id).not.toBe(before?.goal.id);
    expect(await keyedComments(h, first, "status")).toHaveLength(1);
    expect(await keyedComments(h, second, "status")).toHaveLength(1);
    expect(await h.app.ops.snapshot()).toMatchObject({
      inbox: { count: 0 },
      outbox: { pending: 0 },
      deadLetters: 0,
    });
  });
});
