/**
 * The intake's writes: replies, reactions and restores a handler planned, as outbox rows
 * committed with the delivery mark (and, through `apply`, with the transition they answer).
 * Some concern an issue with no goal: those rows are keyed by (installation, key).
 */
import { type Effect, type IntakeEffect, isIntakeEffect } from "@loopx/core";
import type { Db } from "./db.ts";
import { finishDelivery, inTx, takeDelivery } from "./goals-repo.ts";
import * as s from "./schema/index.ts";

/** Where an act's rows belong: its goal (at the version the act saw), or none. */
export interface IntakeTarget {
  installationId: number;
  goal: { id: string; version: number } | null;
}

export interface IntakeRecord extends IntakeTarget {
  /** The delivery whose act this answers: marked processed in the same transaction. */
  deliveryId: string;
  /** What the inbox records as the delivery's outcome. */
  outcome: string;
  effects: IntakeEffect[];
}

/** Inserts the rows, each once: a redelivered act finds its rows and adds none. */
export async function enqueueIntake(
  tx: Db,
  effects: readonly Effect[],
  target: IntakeTarget,
): Promise<void> {
  const byKey = new Map<string, IntakeEffect>();
  for (const e of effects) {
    if (!isIntakeEffect(e)) {
      throw new Error(`${e.kind} is a kernel effect: it is enqueued by its transition`);
    }
    byKey.set(e.key, e);
  }
  if (byKey.size === 0) return;
  const rows = [...byKey.values()].map((e) => ({
    goalId: target.goal?.id ?? null,
    installationId: target.installationId,
    key: e.key,
    kind: e.kind,
    payload: e,
    goalVersion: target.goal?.version ?? 0,
  }));
  await tx.insert(s.outbox).values(rows).onConflictDoNothing();
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
