import { dbOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { botComments, comment, openTestGate, startGoal } from "../support/goal-steps.ts";

/**
 * Scenario: `notify: { remind: 2h }` in `.github/loopx.yml`. A gate's notice is posted at once;
 * its reminder waits two hours on the App's clock, is posted once if the gate still waits, and
 * never again. A gate approved before its reminder is due gets none.
 */
describe("e2e: one reminder, after the configured delay, only while still waiting", () => {
  let h: Harness;
  let number: number;
  let goalId: string;
  beforeAll(async () => {
    h = await startHarness({
      onPostgres: true,
      files: { ".github/loopx.yml": "notify:\n  remind: 2h\n" },
    });
    ({ number, goalId } = await startGoal(h, "alice"));
  });
  afterAll(() => h.close());

  const notices = async () =>
    (await botComments(h, number)).filter((c) => c.key?.startsWith("notify:")).map((c) => c.key);
  /** Makes the reminder rows due now, their occasion `ago` old on the App's clock. */
  async function reminderRowsDue(ago: string): Promise<void> {
    await dbOf(h.store).execute(
      sql`UPDATE outbox SET next_attempt_at = now(),
            payload = jsonb_set(payload, '{occasion,at}', to_jsonb(now() - ${ago}::interval))
          WHERE kind = 'notify' AND key LIKE '%:remind' AND done_at IS NULL`,
    );
    h.app.outbox.kick();
    await h.settle();
  }

  it("the notice now, the reminder not before two hours", async () => {
    await openTestGate(h, goalId, { question: "May I deploy?", scopes: ["deploy"] });
    expect(await notices()).toEqual(["notify:gate:G1"]);
    await reminderRowsDue("119 minutes");
    expect(await notices()).toEqual(["notify:gate:G1"]);
  });

  it("two hours on, one reminder mentioning the owners; never a second", async () => {
    await reminderRowsDue("121 minutes");
    expect(await notices()).toEqual(["notify:gate:G1", "notify:gate:G1:remind"]);
    const reminder = (await botComments(h, number)).find((c) => c.key === "notify:gate:G1:remind");
    expect(reminder?.body).toContain("@alice");
    expect(reminder?.body).toContain("Reminder");
    // Made due again, as after a crash right after the post: still one.
    await dbOf(h.store).execute(
      sql`UPDATE outbox SET done_at = NULL, next_attempt_at = now() WHERE key = 'notify:gate:G1:remind'`,
    );
    h.app.outbox.kick();
    await h.settle();
    expect(await notices()).toEqual(["notify:gate:G1", "notify:gate:G1:remind"]);
  });

  it("a gate approved before its reminder is due gets none", async () => {
    await openTestGate(h, goalId, { question: "May I publish?", scopes: ["publish"] });
    expect(await notices()).toContain("notify:gate:G2");
    await comment(h, "alice", number, "/loopx approve G2");
    await reminderRowsDue("3 hours");
    expect(await notices()).toEqual(["notify:gate:G1", "notify:gate:G1:remind", "notify:gate:G2"]);
    const rows = await h.store.outboxForGoal(goalId);
    expect(rows.find((r) => r.key === "notify:gate:G2:remind")?.deadAt).toBeNull();
  });
});
