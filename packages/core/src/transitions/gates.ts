import { currentChecks } from "../pr-outcome.ts";
import type { Gate } from "../schemas/gate.ts";
import type { ApproveGateInput, OpenGateInput, RejectGateInput } from "../schemas/inputs.ts";
import {
  ApproveGateInput as ApproveSchema,
  OpenGateInput as OpenSchema,
  RejectGateInput as RejectSchema,
} from "../schemas/inputs.ts";
import type { GoalState } from "../schemas/state.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { commit } from "./commit.ts";
import { openHeldPullRequest } from "./held-pull-request.ts";
import type { Draft, Refused } from "./kit.ts";
import { addEffect, begin, emit, isRefused, parseInput, refuse, resetBackoff } from "./kit.ts";
import { openGateIn } from "./open-gate.ts";
import { dropPlan, releasePlan } from "./plan-gate.ts";

export function openGate(
  state: GoalState,
  input: OpenGateInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(OpenSchema, input);
  if (isRefused(parsed)) return parsed;
  if (ctx.actor.kind === "human" && !ctx.actor.trusted) {
    return refuse("not_authorized", `@${ctx.actor.login} may not open gates without write access.`);
  }
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  if (parsed.todo !== null && !d.state.todos.some((t) => t.key === parsed.todo)) {
    return refuse("not_found", `todo: there is no todo ${parsed.todo} on this goal.`);
  }
  openGateIn(d, parsed);
  return commit(d);
}

/** Short and full SHAs of one commit name the same head. */
function sameHead(a: string, b: string): boolean {
  return a.length >= 7 && b.length >= 7 && (a.startsWith(b) || b.startsWith(a));
}

function resolvable(d: Draft, key: string, verb: string): Gate | Refused {
  const gate = d.state.gates.find((g) => g.key === key);
  if (!gate) {
    const open = d.state.gates.filter((g) => g.status === "open").map((g) => g.key);
    return refuse(
      "not_found",
      `There is no gate ${key} (open gates: ${open.join(", ") || "none"}).`,
    );
  }
  if (gate.status === "approved" && verb === "approve") {
    return refuse("duplicate", `${key} is already approved by @${gate.resolvedBy ?? "someone"}.`);
  }
  if (gate.status !== "open") {
    return refuse(
      "invalid_state",
      `${key} is ${gate.status}, not open; only an open gate can be ${verb}d.`,
    );
  }
  return gate;
}

function requireWriter(ctx: TransitionContext, verb: string): { login: string } | Refused {
  const actor = ctx.actor;
  if (actor.kind === "human" && actor.trusted) return { login: actor.login };
  const who = actor.kind === "human" ? `@${actor.login}` : `the ${actor.kind}`;
  return refuse(
    "not_authorized",
    `${who} cannot ${verb} gates: only a person with write access to the repository can.`,
  );
}

export function approveGate(
  state: GoalState,
  input: ApproveGateInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(ApproveSchema, input);
  if (isRefused(parsed)) return parsed;
  const who = requireWriter(ctx, "approve");
  if (isRefused(who)) return who;
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const gate = resolvable(d, parsed.gate, "approve");
  if (isRefused(gate)) return gate;
  if (gate.pr && parsed.headSha !== undefined && !sameHead(parsed.headSha, gate.pr.headSha)) {
    return refuse(
      "stale_version",
      `${gate.key} is bound to PR #${gate.pr.number} at ${gate.pr.headSha.slice(0, 7)}, but the approval was for ${parsed.headSha.slice(0, 7)}; review the current head.`,
    );
  }
  const seen = gate.pr?.seenAt ?? null;
  if (gate.pr && seen !== null && parsed.commentAt !== undefined && parsed.commentAt <= seen) {
    // GitHub's times are whole seconds: a comment in the same second is not provably after.
    return refuse(
      "stale_version",
      `This approval was written at ${parsed.commentAt.toISOString()}, before PR #${gate.pr.number} moved to ${gate.pr.headSha.slice(0, 12)} (reported at ${seen.toISOString()}), so it was about an earlier head and approves nothing. To approve ${gate.pr.headSha.slice(0, 12)}, review it and comment \`/loopx approve ${gate.key}\` again.`,
    );
  }
  gate.status = "approved";
  gate.resolvedBy = who.login;
  gate.resolvedAt = ctx.now;
  gate.note = parsed.note;
  emit(d, "gate.approved", {
    gate: gate.key,
    by: who.login,
    scopes: gate.scopes,
    note: parsed.note,
    head: gate.pr?.headSha ?? null,
    act: parsed.act,
  });
  const note = parsed.note ? `: ${parsed.note}` : "";
  addEffect(d, {
    kind: "receipt",
    // A PR-bound gate is approved per head: after a push reopens it, the next approval
    // is a new act and gets its own receipt.
    key: gate.pr
      ? `receipt:gate:${gate.key}:approved@${gate.pr.headSha}`
      : `receipt:gate:${gate.key}:approved`,
    text: `@${who.login} approved ${gate.key} (${gate.scopes.join(", ")})${note}${gate.pr ? ` (head ${gate.pr.headSha.slice(0, 7)} of #${gate.pr.number})` : ""}`.slice(
      0,
      2000,
    ),
  });
  approveWaitingRuns(d, gate);
  openHeldPullRequest(d, gate);
  releasePlan(d, gate);
  resetBackoff(d, `${gate.key} approved`);
  return commit(d);
}

/** An approved `ci-approval:<n>` gate lets the runs waiting on #n's current head go. */
function approveWaitingRuns(d: Draft, gate: Gate): void {
  for (const scope of gate.scopes) {
    const n = Number(/^ci-approval:(\d+)$/.exec(scope)?.[1] ?? Number.NaN);
    const pr = d.state.pullRequests.find((p) => p.number === n);
    if (!pr) continue;
    const runIds = currentChecks(pr).flatMap((c) =>
      c.status === "action_required" && c.runId !== null ? [c.runId] : [],
    );
    addEffect(d, {
      kind: "approve_runs",
      key: `gate:${gate.key}:approve_runs@${pr.headSha}`,
      gate: gate.key,
      pr: n,
      runIds,
    });
  }
}

export function rejectGate(
  state: GoalState,
  input: RejectGateInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(RejectSchema, input);
  if (isRefused(parsed)) return parsed;
  const who = requireWriter(ctx, "reject");
  if (isRefused(who)) return who;
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const gate = resolvable(d, parsed.gate, "reject");
  if (isRefused(gate)) return gate;
  gate.status = "rejected";
  gate.resolvedBy = who.login;
  gate.resolvedAt = ctx.now;
  gate.note = parsed.reason;
  emit(d, "gate.rejected", {
    gate: gate.key,
    by: who.login,
    scopes: gate.scopes,
    reason: parsed.reason,
    act: parsed.act,
  });
  addEffect(d, {
    kind: "receipt",
    key: `receipt:gate:${gate.key}:rejected`,
    text: `@${who.login} rejected ${gate.key} (${gate.scopes.join(", ")}): ${parsed.reason}`.slice(
      0,
      2000,
    ),
  });
  dropPlan(d, gate);
  resetBackoff(d, `${gate.key} rejected`);
  return commit(d);
}
