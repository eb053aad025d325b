/**
 * The intake's writes: replies, reactions and restores a handler planned, as outbox rows
 * committed with the delivery mark (and, through `apply`, with the transition they answer).
 * Some concern an issue with no goal: those rows are keyed by (installation, key).
 */
import type { IntakeEffect } from "@loopx/core";
import type { Db } from "./db.ts";
import { finishDelivery, takeDelivery } from "./delivery-lock.ts";
import { inTx } from "./goals-repo.ts";
import { enqueueIntake, type IntakeTarget } from "./intake-rows.ts";

export interface IntakeRecord extends IntakeTarget {
  /** The delivery whose act this answers: marked processed in the same transaction. */
  deliveryId: string;
  /** What the inbox records as the delivery's outcome. */
  outcome: string;
  effects: IntakeEffect[];
}

/**
 * An act that changes no goal (a refusal, an outsider's command, a restore): its replies
 * and the delivery mark in one transaction, no version bump. False when the delivery was
 * already processed (nothing written).
 */
export async function recordIntake(db: Db, r: IntakeRecord): Promise<boolean> {
  const done = await inTx(db, async (tx) => {
    await takeDelivery(tx, r.deliveryId);
    await enqueueIntake(tx, r.effects, r);
    await finishDelivery(tx, r.deliveryId, r.outcome.slice(0, 500));
    return { ok: true as const };
  });
  return done.ok;
}
