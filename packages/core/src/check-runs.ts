import { claimCheck, claimOn } from "./claim-check.ts";
import type { Gate } from "./schemas/gate.ts";
import type { GoalState, PullRequest } from "./schemas/state.ts";

/** The check LoopX keeps on each of its PRs' heads: a ruleset requiring it binds the gates. */
export const GATES_CHECK = "LoopX / gates";

/** Check runs LoopX writes itself: never CI evidence, never a repair todo. */
export const isLoopxCheck = (name: string): boolean => name.startsWith("LoopX / ");

/**
 * One check run as LoopX wants it on a head. `failure` rather than `action_required`: a
 * required check passes only as success, neutral or skipped, so both block the merge, but
 * failure is what every merge bot and CI reader reads as "not yet" (action_required is read
 * by some, LoopX's own PR monitor among them, as a run waiting for approval).
 */
export interface PlannedCheckRun {
  name: string;
  pr: number;
  headSha: string;
  conclusion: "success" | "failure" | "neutral";
  title: string;
  summary: string;
}

/** The gates that decide a PR's merge: those bound to it, and an unbound one of its todo. */
function gatesCovering(state: GoalState, pr: PullRequest): Gate[] {
  return state.gates.filter(
    (g) =>
      g.pr?.number === pr.number ||
      (g.pr === null && g.status === "open" && pr.todo !== null && g.todo === pr.todo),
  );
}

/**
 * Why a gate still stands between this head and the merge, or null when it does not. An
 * expired gate asks nothing any more (a merge question withdrawn when CI turned red is asked
 * again by a new gate): it cannot be approved, so counting it would fail the check for good.
 */
function blocking(gate: Gate, headSha: string): string | null {
  const approvedHere = gate.status === "approved" && gate.pr?.headSha === headSha;
  if (approvedHere) return null;
  switch (gate.status) {
    case "open":
      return `${gate.key} is open`;
    case "approved":
      return `${gate.key} was approved for another head`;
    case "rejected":
      return `${gate.key} was rejected`;
    case "expired":
      return null;
  }
}

/** `LoopX / gates` for one open PR: failure while a gate covering its head is not approved for it. */
export function gatesCheck(state: GoalState, pr: PullRequest): PlannedCheckRun {
  const goal = `#${state.goal.issue.number}`;
  const head = pr.headSha.slice(0, 12);
  const gates = gatesCovering(state, pr);
  const reasons = gates.flatMap((g) => {
    const why = blocking(g, pr.headSha);
    return why === null ? [] : [{ key: g.key, why }];
  });
  const base = { name: GATES_CHECK, pr: pr.number, headSha: pr.headSha };
  if (reasons.length > 0) {
    const keys = reasons.map((r) => r.key);
    return {
      ...base,
      conclusion: "failure",
      title: `Waiting for ${keys.join(", ")}`,
      summary: [
        `LoopX gates of goal ${goal} cover this head (\`${head}\`) and are not approved for it: ${reasons.map((r) => r.why).join("; ")}.`,
        "",
        `A person with write access approves with \`/loopx approve ${keys[0]}\` on ${goal} (or an approving review of this head, for a gate bound to this pull request). A new push needs a new approval.`,
      ].join("\n"),
    };
  }
  const approved = gates.filter((g) => g.status === "approved").map((g) => g.key);
  return {
    ...base,
    conclusion: "success",
    title: approved.length > 0 ? `${approved.join(", ")} approved` : "No gate waits",
    summary:
      approved.length > 0
        ? `LoopX gates ${approved.join(", ")} of goal ${goal} are approved for this head (\`${head}\`).`
        : `No LoopX gate of goal ${goal} covers this head (\`${head}\`).`,
  };
}

/**
 * Every check run LoopX wants on GitHub for the goal now: `LoopX / gates` on each open PR's
 * head, and `LoopX / claim` there while a tick holds one of its todos.
 */
export function plannedCheckRuns(state: GoalState, now: Date): PlannedCheckRun[] {
  return state.pullRequests
    .filter((p) => p.state === "open")
    .flatMap((p) => {
      const claim = claimCheck(state, p, now);
      return claim === null ? [gatesCheck(state, p)] : [gatesCheck(state, p), claim];
    });
}

/**
 * What the check runs would show, minus the lease's end: a transition that changes it asks
 * the outbox to write them; a renewal alone does not.
 */
export function checkRunsSignature(state: GoalState, now: Date): string {
  return JSON.stringify(
    state.pullRequests
      .filter((p) => p.state === "open")
      .map((p) => {
        const gates = gatesCheck(state, p);
        return [
          p.number,
          p.headSha,
          gates.conclusion,
          gates.title,
          claimOn(state, p, now)?.claim.tickId ?? null,
        ];
      }),
  );
}
