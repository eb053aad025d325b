import {
  addEvidence,
  type Effect,
  expireLeases,
  type GoalState,
  type HarnessResult,
  redactSecrets,
  type Tick,
  type TransitionContext,
  type TransitionResult,
} from "@loopx/core";
import { transitionContext } from "../intake/goal-context.ts";
import type { TickApiContext } from "./authorize-call.ts";

const latePrefix = (tick: Tick) => `late result of tick #${tick.number}`;

function summarise(tick: Tick, result: HarnessResult): string {
  const commits = result.commits.length;
  const parts = [
    `${latePrefix(tick)} on ${tick.todo} (${result.outcome}${result.failure ? `: ${result.failure}` : ""})`,
    `${commits} commit${commits === 1 ? "" : "s"}`,
    result.handoff.done ? `done: ${result.handoff.done}` : "",
  ].filter((p) => p !== "");
  // Refused as a result, kept as a record: agent text, so scrubbed and bounded like any evidence.
  return redactSecrets(parts.join("; "), []).slice(0, 500);
}

function mergeEffects(a: Effect[], b: Effect[]): Effect[] {
  const out = a.filter((e) => !b.some((x) => x.key === e.key));
  return [...out, ...b];
}

/**
 * One transition for a result that arrived after its lease ended: expire the lease if no
 * sweep did yet (host_failure evidence, the cap charged, backoff grown), then keep what the
 * result said as `log` evidence — once per tick, however often the report job retries.
 * Nothing of the result is applied: no progress, no completion, no slot.
 */
export function keepLateResult(tick: Tick, result: HarnessResult) {
  return (state: GoalState, ctx: TransitionContext): TransitionResult => {
    if (
      state.evidence.some((e) => e.kind === "log" && e.summary.startsWith(`${latePrefix(tick)} `))
    ) {
      return {
        ok: false,
        refusal: { code: "duplicate", message: "the late result is already kept" },
      };
    }
    const expired = expireLeases(state, ctx);
    const base = expired.ok ? expired.state : state;
    const head = result.commits.at(-1)?.sha ?? null;
    const kept = addEvidence(
      base,
      { kind: "log", summary: summarise(tick, result), todo: tick.todo, sha: head },
      ctx,
    );
    if (!kept.ok) return expired;
    if (!expired.ok) return kept;
    return {
      ok: true,
      state: kept.state,
      events: [...expired.events, ...kept.events],
      effects: mergeEffects(expired.effects, kept.effects),
    };
  };
}

/** Applies keepLateResult; a failure here never changes the caller's answer (409). */
export async function recordLateResult(
  ctx: TickApiContext,
  goalId: string,
  tick: Tick,
  result: HarnessResult,
): Promise<void> {
  const keep = keepLateResult(tick, result);
  try {
    await ctx.deps.store.apply(
      goalId,
      (state, now) =>
        // The agent's words: untrusted, so keeping them never resets the backoff.
        keep(
          state,
          transitionContext(
            ctx.deps,
            { kind: "agent", tickId: tick.id, harness: tick.harness },
            now,
          ),
        ),
      { source: { tickId: tick.id } },
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ctx.deps.log.warn(`keeping the late result of tick ${tick.id} failed: ${message}`);
  }
}
