import type { Gate } from "../schemas/gate.ts";
import { addEffect, type Draft, emit } from "./kit.ts";
import { notifyOwners } from "./notify-owners.ts";

export interface GateSpec {
  question: string;
  scopes: string[];
  requestedFrom?: string[];
  todo?: string | null;
  pr?: { number: number; headSha: string } | null;
}

/** Opens a gate inside a transition; shared with tick results that ask for authority. */
export function openGateIn(d: Draft, spec: GateSpec): Gate {
  const goal = d.state.goal;
  const key = `G${goal.counters.gate}`;
  goal.counters.gate += 1;
  const gate: Gate = {
    key,
    question: spec.question,
    scopes: spec.scopes,
    status: "open",
    requestedFrom: spec.requestedFrom ?? [],
    todo: spec.todo ?? null,
    pr: spec.pr ? { ...spec.pr, seenAt: null } : null,
    openedAt: d.ctx.now,
    resolvedBy: null,
    resolvedAt: null,
    note: null,
  };
  d.state.gates.push(gate);
  emit(d, "gate.opened", {
    gate: key,
    scopes: gate.scopes,
    todo: gate.todo,
    pr: gate.pr?.number ?? null,
  });
  addEffect(d, { kind: "gate_comment", key: `gate:${key}:opened`, gate: key });
  notifyOwners(d, {
    kind: "gate_opened",
    key: `gate:${key}`,
    gate: key,
    text: `Gate ${key} waits for a writer: comment \`/loopx approve ${key}\` to allow it, or \`/loopx reject ${key} <reason>\`.`,
  });
  if (gate.pr) {
    addEffect(d, {
      kind: "review_request",
      key: `gate:${key}:review`,
      pr: gate.pr.number,
      reviewers: gate.requestedFrom.length > 0 ? gate.requestedFrom : goal.owners,
      gate: key,
    });
  }
  return gate;
}

/** Open gates that no longer ask anything (`which`) expire; true when one did. */
export function expireWhere(d: Draft, which: (g: Gate) => boolean, reason: string): boolean {
  let expired = false;
  for (const gate of d.state.gates) {
    if (gate.status !== "open" || !which(gate)) continue;
    gate.status = "expired";
    gate.resolvedAt = d.ctx.now;
    emit(d, "gate.expired", { gate: gate.key, reason });
    expired = true;
  }
  return expired;
}
