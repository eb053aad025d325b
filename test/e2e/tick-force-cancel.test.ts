import { dbOf, rowsOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TICK_WORKFLOW } from "../support/app-harness.ts";
import { cancelRequests, command } from "../support/interrupted-slices.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { askRun } from "../support/tick-calls.ts";
import { dispatchOneTick, finishRun } from "../support/tick-workflow-runs.ts";

/** A tick workflow whose `always()` job never ends: a cancel cannot stop it, only a force-cancel. */
const HANGING = `${TICK_WORKFLOW.slice(0, TICK_WORKFLOW.indexOf("jobs:"))}jobs:
  agent:
    runs-on: ubuntu-latest
    steps:
      - run: while :; do sleep 0.2; done
  report:
    needs: agent
    if: always()
    runs-on: ubuntu-latest
    steps:
      - run: while :; do sleep 0.2; done
`;

/**
 * Scenario: a writer stops the goal while its tick's run is going, and the run does not end on
 * the cancel (its `always()` report job hangs). The App cancels at once, waits, and five
 * minutes after the stop force-cancels the run, which skips `always()`; nothing is sent twice.
 */
describe("e2e: a run that ignores the cancel is force-cancelled five minutes later", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness({ onPostgres: true });
    h.sandbox.push("acme/widgets", "main", { ".github/workflows/loopx-tick.yml": HANGING });
  });
  afterAll(() => h?.close());

  const jobStatus = (runId: number, key: string) =>
    [...h.sandbox.store.workflowJobs.values()].find((j) => j.runId === runId && j.key === key)
      ?.status;

  async function until(what: string, holds: () => boolean): Promise<void> {
    for (let i = 0; i < 300 && !holds(); i++) await new Promise((r) => setTimeout(r, 50));
    if (!holds()) throw new Error(`never: ${what}`);
  }

  const cancelRow = async (goalId: string) =>
    (await h.store.outboxForGoal(goalId)).find((r) => r.effect.kind === "cancel_run");

  it("cancel first, force-cancel after five minutes, and then nothing more", async () => {
    const goal = await h.startGoal("Index the archive", ["Build the index"]);
    const issue = goal.goal.issue.number;
    const run = await dispatchOneTick(h, issue);
    await until("the agent job runs", () => jobStatus(run.id, "agent") === "in_progress");
    // The run's ask, played by hand: the tick is this run's.
    const claim = await askRun(h, issue, run.id);

    await command(h, issue, "/loopx stop");
    expect(cancelRequests(h, run.id)).toEqual(["cancel"]);
    await until("the report job runs", () => jobStatus(run.id, "report") === "in_progress");
    expect(h.sandbox.store.workflowRuns.get(run.id)?.status).toBe("in_progress");
    const waiting = await cancelRow(goal.goal.id);
    expect(waiting?.lastError).toContain("force-cancels it at");

    // Before the five minutes are up, the App sends nothing more however often it looks.
    await dbOf(h.store).execute(
      sql`UPDATE outbox SET next_attempt_at = now() WHERE kind = 'cancel_run'`,
    );
    h.app.outbox.kick();
    await h.settle();
    expect(cancelRequests(h, run.id)).toEqual(["cancel"]);

    // Five minutes pass on the App's clock: the stop is now that long ago.
    await dbOf(h.store).execute(
      sql`UPDATE outbox SET next_attempt_at = now(),
            payload = jsonb_set(payload, '{at}', to_jsonb(now() - interval '301 seconds'))
          WHERE kind = 'cancel_run'`,
    );
    h.app.outbox.kick();
    await h.settle();
    expect(cancelRequests(h, run.id)).toEqual(["cancel", "force-cancel"]);
    const { run: done, jobs } = await finishRun(h, run.id);
    expect(done.conclusion).toBe("cancelled");
    expect(jobs.report?.conclusion).toBe("cancelled");
    const rows = await dbOf(h.store).execute(
      sql`SELECT done_at IS NOT NULL AS done, dead_at IS NULL AS alive FROM outbox WHERE kind = 'cancel_run'`,
    );
    expect(rowsOf(rows)).toEqual([{ done: true, alive: true }]);

    // No report came (a force-cancel skips `always()`): the tick stays unreported, its lease
    // already ended, so nothing runs on the stopped goal; the sweep charges it when it expires.
    const after = await h.store.loadGoal(goal.goal.id);
    const tick = after?.ticks.find((t) => t.id === claim.tickId);
    expect(tick).toMatchObject({ failure: "stopped", finishedAt: null, cost: null });
    expect(after?.todos.every((t) => t.claim === null)).toBe(true);
  }, 120_000);
});
