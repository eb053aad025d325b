/** The real kernel's transitions, bound for the store (its `now` is the database clock). */
import { randomUUID } from "node:crypto";
import {
  type Actor,
  applyTickResult,
  claimTodo,
  createGoal,
  expireLeases,
  freeTickSlot,
  type GoalState,
  type HarnessResult,
  type TickSlot,
  type TransitionContext,
  type TransitionResult,
} from "@loopx/core";

let issueSeq = 5000;

function ctx(actor: Actor, now: Date): TransitionContext {
  return { actor, now, newId: () => randomUUID() };
}

const _app: Actor = { kind: "app" };

export function kernelCreate(
  over: {
    repoId?: number;
    issue?: number;
    todos?: number;
    plan?: "approve" | "auto";
    parallel?: number;
    /** Declared paths of each todo, in order (missing: none declared). */
    paths?: string[][];
  } = {},
) {
  const issue = over.issue ?? issueSeq++;
  return (now: Date): TransitionResult =>
    createGoal(
      {
        id: randomUUID(),
        installationId: 11,
        repo: { id: over.repoId ?? 4242, ownerId: 99, owner: "acme", name: "rocket" },
        issue: { id: 700_000 + issue, number: issue },
        objective: {
          title: "Reach orbit",
          body: "Build the rocket.",
          author: "bob",
          authorTrusted: true,
          snapshotAt: now,
        },
        owners: ["bob"],
        harness: "shell",
        budget: { usd: 50 },
        ...(over.plan ? { plan: over.plan } : {}),
        ...(over.parallel ? { parallel: over.parallel } : {}),
        todos: Array.from({ length: over.todos ?? 3 }, (_, i) => ({
          title: `Stage ${i + 1}`,
          paths: over.paths?.[i] ?? [],
        })),
      },
      ctx({ kind: "human", login: "bob", trusted: true }, now),
    );
}

export interface KernelClaim {
  agent: string;
  todo?: string;
  run?: { id: number; attempt: number } | null;
  leaseTtlMs?: number;
  slot?: TickSlot;
}

/** Returns the claim transition and the tick id/lease token it will use. */
export function kernelClaim(input: KernelClaim) {
  const tickId = randomUUID();
  const leaseToken = randomUUID().replaceAll("-", "");
  const transition = (state: GoalState, now: Date): TransitionResult =>
    claimTodo(
      state,
      {
        tickId,
        leaseToken,
        agent: input.agent,
        harness: "shell",
        run: input.run ?? null,
        leaseTtlMs: input.leaseTtlMs ?? 15 * 60_000,
        ...(input.todo ? { todo: input.todo } : {}),
        ...(input.slot !== undefined ? { slot: input.slot } : {}),
      },
      ctx({ kind: "agent", tickId, harness: "shell" }, now),
    );
  return { tickId, leaseToken, transition };
}

/** A ClaimFn for claimNextDue that takes the goal's lowest free slot, as the dispatcher does. */
export function kernelSlotClaimFn(state: GoalState, now: Date, agent: string): TransitionResult {
  const slot = freeTickSlot(state, now);
  if (slot === null) return { ok: false, refusal: { code: "lease_held", message: "no free slot" } };
  return kernelClaim({ agent, slot }).transition(state, now);
}

/** A ClaimFn for claimNextDue: a fresh tick per attempt. */
export function kernelClaimFn(state: GoalState, now: Date, agent: string): TransitionResult {
  return kernelClaim({ agent }).transition(state, now);
}

export function kernelResult(
  tickId: string,
  leaseToken: string,
  todo: string,
  proposedTodos: HarnessResult["proposedTodos"] = [],
) {
  const result: HarnessResult = {
    todo,
    outcome: "progress",
    failure: null,
    validation: { command: "npm test", exitCode: 0, passed: true, summary: "ok" },
    commits: [{ sha: "0123456789abcdef", message: "wip" }],
    evidence: [{ kind: "test", summary: "unit tests pass", url: null, sha: "0123456789abcdef" }],
    handoff: { done: "stage built", next: "test it", questions: [] },
    continuation: null,
    proposedTodos,
    gateRequests: [],
    cost: { usd: 0.4, tokens: 1200, runnerMinutes: 4 },
    metering: "proxy",
    withheld: [],
    sessionId: null,
  };
  return (state: GoalState, now: Date): TransitionResult =>
    applyTickResult(
      state,
      { tickId, leaseToken, result },
      ctx({ kind: "agent", tickId, harness: "shell" }, now),
    );
}

export function kernelExpire(state: GoalState, now: Date): TransitionResult {
  return expireLeases(state, ctx({ kind: "system", reason: "lease sweep" }, now));
}
