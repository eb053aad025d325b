/**
 * The intake's outbox rows, run against every driver: an act's replies are committed with
 * its delivery mark (and with its transition, or its refusal without a version bump), once
 * per key — per goal, or per installation for an issue with no goal.
 */
import type { IntakeEffect } from "@loopx/core";
import type { Store } from "@loopx/store";
import { asc, dbOf, tables } from "@loopx/store/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { truncateAll } from "../support/databases.ts";
import { createFixture, pauseFixture } from "./fixtures.ts";

const ISSUE = { owner: "acme", repo: "widgets", number: 7 };
const reply = (key: string, body = "hello"): IntakeEffect => ({
  kind: "reply",
  key,
  issue: ISSUE,
  body,
  lane: "loopx",
  to: { repoId: 10, login: "tom" },
});

export function describeIntakeConformance(name: string, store: () => Store): void {
  describe(`intake rows: ${name}`, () => {
    beforeEach(async () => {
      await truncateAll(store());
    });

    const rows = () =>
      dbOf(store())
        .select({
          goalId: tables.outbox.goalId,
          installationId: tables.outbox.installationId,
          key: tables.outbox.key,
          goalVersion: tables.outbox.goalVersion,
        })
        .from(tables.outbox)
        .orderBy(asc(tables.outbox.id));
    const record = async (deliveryId: string, installationId: number, effects: IntakeEffect[]) => {
      await store().recordDelivery({ deliveryId, event: "issues", payload: {} });
      return store().recordIntake({
        deliveryId,
        outcome: "ignored: a label from someone without write access",
        effects,
        installationId,
        goal: null,
      });
    };

    it("a goal-less reply is one row per installation and key, with its delivery marked", async () => {
      expect(await record("d1", 1, [reply("label-refused:tom")])).toBe(true);
      expect((await store().getDelivery("d1"))?.outcome).toBe(
        "ignored: a label from someone without write access",
      );
      // The same act delivered again (a new delivery id): no second row.
      expect(await record("d2", 1, [reply("label-refused:tom", "again")])).toBe(true);
      // Another installation's issue may carry the same key.
      expect(await record("d3", 2, [reply("label-refused:tom")])).toBe(true);
      expect(await rows()).toEqual([
        { goalId: null, installationId: 1, key: "label-refused:tom", goalVersion: 0 },
        { goalId: null, installationId: 2, key: "label-refused:tom", goalVersion: 0 },
      ]);
      const [due] = await store().dueOutbox(1);
      expect(due).toMatchObject({ goalId: null, installationId: 1, effect: { body: "hello" } });
    });

    it("a delivery already processed records nothing", async () => {
      await record("d1", 1, [reply("a")]);
      expect(
        await store().recordIntake({
          deliveryId: "d1",
          outcome: "ignored: again",
          effects: [reply("b")],
          installationId: 1,
          goal: null,
        }),
      ).toBe(false);
      expect((await rows()).map((r) => r.key)).toEqual(["a"]);
    });

    it("a kernel effect is not the intake's to record", async () => {
      await store().recordDelivery({ deliveryId: "d1", event: "issues", payload: {} });
      await expect(
        store().recordIntake({
          deliveryId: "d1",
          outcome: "ignored",
          // @ts-expect-error a kernel effect, refused at run time too
          effects: [{ kind: "close_issue", key: "close_issue" }],
          installationId: 1,
          goal: null,
        }),
      ).rejects.toThrow(/kernel effect/);
      expect(await rows()).toEqual([]);
      expect((await store().getDelivery("d1"))?.processedAt).toBeNull();
    });

    it("a refused transition's answer is written with the refusal, at the unchanged version", async () => {
      const created = await store().createGoal(createFixture());
      if (!created.ok) throw new Error(created.refusal.message);
      const { id, version } = created.state.goal;
      await store().recordDelivery({ deliveryId: "d1", event: "issue_comment", payload: {} });
      const r = await store().apply(
        id,
        () => ({ ok: false, refusal: { code: "invalid_state", message: "not now" } }),
        { deliveryId: "d1", onRefused: (refusal) => [reply("reply:comment:5", refusal.message)] },
      );
      expect(r.ok).toBe(false);
      expect((await store().loadGoal(id))?.goal.version).toBe(version);
      expect((await store().getDelivery("d1"))?.outcome).toBe("refused:invalid_state");
      const answer = (await rows()).filter((row) => row.key === "reply:comment:5");
      expect(answer).toEqual([
        {
          goalId: id,
          installationId: created.state.goal.installationId,
          key: "reply:comment:5",
          goalVersion: version,
        },
      ]);
      // An accepted transition does not call for the refusal's answer.
      await store().recordDelivery({ deliveryId: "d2", event: "issue_comment", payload: {} });
      const ok = await store().apply(id, pauseFixture(), {
        deliveryId: "d2",
        onRefused: () => [reply("reply:comment:6")],
      });
      expect(ok.ok).toBe(true);
      expect((await rows()).map((row) => row.key)).not.toContain("reply:comment:6");
    });
  });
}
