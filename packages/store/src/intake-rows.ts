/**
 * The intake's outbox rows (replies, reactions, restores), each once: per goal, or per
 * installation for an issue with no goal. Written inside the caller's transaction.
 */
import { type Effect, type IntakeEffect, isIntakeEffect } from "@loopx/core";
import type { Db } from "./db.ts";
import * as s from "./schema/index.ts";

/** Where an act's rows belong: its goal (at the version the act saw), or none. */
export interface IntakeTarget {
  installationId: number;
  goal: { id: string; version: number } | null;
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
