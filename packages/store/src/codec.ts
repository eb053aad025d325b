/**
 * GoalState ↔ rows. Writing flattens the kernel's objects into columns; reading rebuilds
 * plain objects and parses them with the kernel's zod schemas, so nothing from the
 * database reaches the kernel unvalidated.
 */
import type { Evidence, Gate, Goal, Handoff, Note, PullRequest, Tick, Todo } from "@loopx/core";
import type * as s from "./schema/index.ts";

type Row<T extends { $inferSelect: unknown }> = T["$inferSelect"];
type NewRow<T extends { $inferInsert: unknown }> = T["$inferInsert"];

/** T12 → 12: keys are minted from a counter, so their number is creation order. */
export function keyOrdinal(key: string): number {
  return Number.parseInt(key.slice(1), 10);
}

export function goalToRow(g: Goal): NewRow<typeof s.goals> {
  return {
    id: g.id,
    installationId: g.installationId,
    repoId: g.repo.id,
    repoOwnerId: g.repo.ownerId,
    repoOwner: g.repo.owner,
    repoName: g.repo.name,
    issueId: g.issue.id,
    issueNumber: g.issue.number,
    status: g.status,
    statusReason: g.statusReason,
    harness: g.harness,
    validationCommand: g.validationCommand,
    version: g.version,
    nextWakeAt: g.nextWakeAt,
    backoffLevel: g.backoff.level,
    backoff: g.backoff,
    replanRequested: g.replanRequested,
    focus: g.focus,
    objective: g.objective,
    owners: g.owners,
    budget: g.budget,
    tickCap: g.tickCap,
    quota: g.quota,
    plan: g.plan,
    parallel: g.parallel,
    grantedScopes: g.grantedScopes,
    counters: g.counters,
    spent: g.spent,
    outcomes: g.outcomes,
    digest: g.digest,
    digestDueAt: g.digest.dueAt,
    createdAt: g.createdAt,
    updatedAt: g.updatedAt,
  };
}

/** Unparsed: the caller parses the whole aggregate with GoalState. */
export function rowToGoal(r: Row<typeof s.goals>): Record<string, unknown> {
  return {
    id: r.id,
    installationId: r.installationId,
    repo: { id: r.repoId, ownerId: r.repoOwnerId, owner: r.repoOwner, name: r.repoName },
    issue: { id: r.issueId, number: r.issueNumber },
    objective: r.objective,
    status: r.status,
    statusReason: r.statusReason,
    owners: r.owners,
    harness: r.harness,
    validationCommand: r.validationCommand,
    budget: r.budget,
    tickCap: r.tickCap,
    quota: r.quota,
    plan: r.plan,
    parallel: r.parallel,
    grantedScopes: r.grantedScopes,
    version: r.version,
    nextWakeAt: r.nextWakeAt,
    backoff: r.backoff,
    replanRequested: r.replanRequested,
    counters: r.counters,
    spent: r.spent,
    outcomes: r.outcomes,
    digest: r.digest,
    focus: r.focus,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export function todoToRow(goalId: string, t: Todo): NewRow<typeof s.todos> {
  return {
    goalId,
    key: t.key,
    ordinal: keyOrdinal(t.key),
    title: t.title,
    detail: t.detail,
    status: t.status,
    kind: t.kind,
    position: t.position,
    origin: t.origin,
    requiredScopes: t.requiredScopes,
    paths: t.paths,
    pushedPaths: t.pushedPaths,
    subIssueId: t.subIssue?.id ?? null,
    subIssueNumber: t.subIssue?.number ?? null,
    claimTickId: t.claim?.tickId ?? null,
    claimedBy: t.claim?.agent ?? null,
    leaseExpiresAt: t.claim?.leaseExpiresAt ?? null,
    heldBy: t.heldBy,
    attempts: t.attempts,
    resumeWhen: t.resumeWhen,
    blockedReason: t.blockedReason,
    completion: t.completion,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

export function rowToTodo(r: Row<typeof s.todos>): Record<string, unknown> {
  return {
    key: r.key,
    title: r.title,
    detail: r.detail,
    status: r.status,
    kind: r.kind,
    position: r.position,
    origin: r.origin,
    requiredScopes: r.requiredScopes,
    paths: r.paths,
    pushedPaths: r.pushedPaths,
    subIssue:
      r.subIssueId === null ? null : { id: r.subIssueId, number: r.subIssueNumber ?? undefined },
    claim:
      r.claimTickId === null
        ? null
        : {
            tickId: r.claimTickId,
            agent: r.claimedBy ?? undefined,
            leaseExpiresAt: r.leaseExpiresAt ?? undefined,
          },
    heldBy: r.heldBy,
    attempts: r.attempts,
    resumeWhen: r.resumeWhen,
    blockedReason: r.blockedReason,
    completion: r.completion,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export function gateToRow(goalId: string, g: Gate): NewRow<typeof s.gates> {
  return {
    goalId,
    key: g.key,
    ordinal: keyOrdinal(g.key),
    question: g.question,
    scopes: g.scopes,
    status: g.status,
    requestedFrom: g.requestedFrom,
    todo: g.todo,
    prNumber: g.pr?.number ?? null,
    prHeadSha: g.pr?.headSha ?? null,
    prHeadSeenAt: g.pr?.seenAt ?? null,
    openedAt: g.openedAt,
    resolvedBy: g.resolvedBy,
    resolvedAt: g.resolvedAt,
    note: g.note,
  };
}

export function rowToGate(r: Row<typeof s.gates>): Record<string, unknown> {
  return {
    key: r.key,
    question: r.question,
    scopes: r.scopes,
    status: r.status,
    requestedFrom: r.requestedFrom,
    todo: r.todo,
    pr:
      r.prNumber === null
        ? null
        : { number: r.prNumber, headSha: r.prHeadSha ?? undefined, seenAt: r.prHeadSeenAt },
    openedAt: r.openedAt,
    resolvedBy: r.resolvedBy,
    resolvedAt: r.resolvedAt,
    note: r.note,
  };
}

export function tickToRow(goalId: string, t: Tick): NewRow<typeof s.ticks> {
  return {
    id: t.id,
    goalId,
    number: t.number,
    todo: t.todo,
    agent: t.agent,
    harness: t.harness,
    runId: t.run?.id ?? null,
    runAttempt: t.run?.attempt ?? null,
    slot: t.slot,
    leaseToken: t.leaseToken,
    leaseExpiresAt: t.leaseExpiresAt,
    startedAt: t.startedAt,
    finishedAt: t.finishedAt,
    outcome: t.outcome,
    failure: t.failure,
    cost: t.cost,
    slotSpent: t.slotSpent,
    sessionId: t.sessionId,
  };
}

export function rowToTick(r: Row<typeof s.ticks>): Record<string, unknown> {
  return {
    id: r.id,
    number: r.number,
    todo: r.todo,
    agent: r.agent,
    harness: r.harness,
    run: r.runId === null ? null : { id: r.runId, attempt: r.runAttempt ?? undefined },
    slot: r.slot,
    leaseToken: r.leaseToken,
    leaseExpiresAt: r.leaseExpiresAt,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    outcome: r.outcome,
    failure: r.failure,
    cost: r.cost,
    slotSpent: r.slotSpent,
    sessionId: r.sessionId,
  };
}

export function evidenceToRow(goalId: string, e: Evidence): NewRow<typeof s.evidence> {
  return { goalId, ...e };
}

export function rowToEvidence(r: Row<typeof s.evidence>): Record<string, unknown> {
  const { goalId: _goalId, seq: _seq, ...rest } = r;
  return rest;
}

export function handoffToRow(goalId: string, h: Handoff): NewRow<typeof s.handoffs> {
  return { goalId, ...h };
}

export function rowToHandoff(r: Row<typeof s.handoffs>): Record<string, unknown> {
  const { goalId: _goalId, seq: _seq, ...rest } = r;
  return rest;
}

export function noteToRow(goalId: string, n: Note): NewRow<typeof s.notes> {
  return { goalId, ...n };
}

export function rowToNote(r: Row<typeof s.notes>): Record<string, unknown> {
  const { goalId: _goalId, seq: _seq, ...rest } = r;
  return rest;
}

export function pullRequestToRow(goalId: string, p: PullRequest): NewRow<typeof s.pullRequests> {
  return { goalId, ...p };
}

export function rowToPullRequest(r: Row<typeof s.pullRequests>): Record<string, unknown> {
  const { goalId: _goalId, seq: _seq, ...rest } = r;
  return rest;
}
