import {
  type ChecksVerdict,
  type Decision,
  type GoalState,
  goalStateWords,
  openPlanGate,
  outcomeAccounting,
  outcomeWords,
  prChecksVerdict,
  runningTicks,
} from "@loopx/core";
import {
  formatCount,
  formatInstant,
  formatMinutes,
  formatRelative,
  formatUsd,
  quoteUntrusted,
  tickRunUrl,
} from "./format.ts";
import { neutralizeInline } from "./neutralize.ts";
import { gateCommands, gateDeciders } from "./render-gate-comment.ts";
import { safeUrl } from "./safe-url.ts";
import { GITHUB_BODY_LIMIT, truncateBody } from "./truncate-body.ts";

/** An outbox write that gave up (repeated 403/404/410), shown so it is not lost silently. */
export interface DeadLetterNotice {
  /** What the write was, e.g. "tick comment", "sub-issue for T4". */
  what: string;
  /** The last error, e.g. "404 Not Found". */
  reason: string;
  attempts: number;
}

export interface StatusCommentOptions {
  now: Date;
  /** The workflow run of the latest tick, when the caller knows it better than the state. */
  runUrl?: string | null;
  deadLetters?: readonly DeadLetterNotice[];
  /** GitHub's web root (github.com, GHES, the sandbox): where run links point. */
  serverUrl: string;
}

const ROUTE_LINE: Record<Decision["route"], string> = {
  run: "▶️ working",
  wait: "⏳ waiting",
  ask_human: "🙋 waiting for you",
  replan: "🧭 replanning",
  over_budget: "💸 over budget",
  stopped: "⏹️ stopped",
  done: "✅ done",
};

function limit(used: string, max: string | null): string {
  return max === null ? `${used} (no limit)` : `${used} of ${max}`;
}

/** Slots spent in the quota's rolling window, for display only (the kernel decides). */
function slots(state: GoalState, now: Date): { used: number; allowed: number } {
  const { windowHours, slotMinutes, compute } = state.goal.quota;
  const since = now.getTime() - windowHours * 3_600_000;
  const used = state.ticks.filter(
    (t) => t.slotSpent && (t.finishedAt ?? t.startedAt).getTime() > since,
  ).length;
  return { used, allowed: Math.floor(((windowHours * 60) / slotMinutes) * compute) };
}

/**
 * The one sticky comment per goal, edited in place: where the goal stands, which gates wait
 * and the exact commands, the last handoff, both ledgers (cost and slots) against their
 * limits, the next wake, and any writes that were given up.
 */
/** What the checks of a PR's head say, in the words of "what green means". */
function checksLabel(verdict: ChecksVerdict): string {
  switch (verdict.kind) {
    case "green":
      return " · required checks green";
    case "failing": {
      const n = verdict.failing.length;
      return ` · ${n} failing check${n === 1 ? "" : "s"}`;
    }
    case "awaiting_approval":
      return " · runs wait for approval";
    case "pending":
      return " · checks running";
    case "unknown":
      return "";
    case "unrequired":
      return " · no required checks: never green";
    case "skip_ci":
      return " · [skip ci] head: never green";
    case "not_passed":
      return " · required checks neutral or skipped: not green";
    case "ci_did_not_run":
      return " · CI did not run";
  }
}

export function renderStatusComment(
  state: GoalState,
  decision: Decision,
  options: StatusCommentOptions,
): string {
  const { goal } = state;
  const { now } = options;
  const out: string[] = [
    `### LoopX · ${ROUTE_LINE[decision.route]} · goal ${goal.status}`,
    "",
    `**Goal:** ${neutralizeInline(goal.objective.title)}`,
    `**State:** ${neutralizeInline(goalStateWords(state, decision, now), 300)}`,
    `**Why:** ${neutralizeInline(decision.reason, 500)}`,
  ];
  if (goal.status !== "active" && goal.statusReason) {
    out.push(`**Status note:** ${neutralizeInline(goal.statusReason, 500)}`);
  }
  if (decision.userInstruction) {
    out.push(`**Your move:** ${neutralizeInline(decision.userInstruction, 1000)}`);
  }

  const open = state.gates.filter((g) => g.status === "open");
  if (open.length > 0) {
    out.push("", "#### Gates waiting");
    for (const gate of open.slice(0, 20)) {
      const { approve, reject } = gateCommands(gate.key);
      const scopes = gate.scopes.map((s) => `\`${s}\``).join(", ");
      out.push(
        `- **${gate.key}** ${neutralizeInline(gate.question, 300)} (covers ${scopes}; decided by ${gateDeciders(gate, goal)})`,
        `  approve: \`${approve}\` · reject: \`${reject}\``,
      );
    }
    if (open.length > 20) out.push(`- …and ${open.length - 20} more open gates`);
  }

  const proposed = state.todos.filter((t) => t.status === "proposed").map((t) => t.key);
  if (proposed.length > 0) {
    const gate = openPlanGate(state);
    out.push(
      "",
      `**Proposed, not run until a writer approves the plan${gate ? ` (${gate.key})` : ""}:** ${proposed.slice(0, 50).join(", ")}${proposed.length > 50 ? ", …" : ""}`,
    );
  }

  if (state.pullRequests.length > 0) {
    out.push("", "#### Pull requests");
    for (const pr of state.pullRequests.slice(0, 20)) {
      const todo = pr.todo ? ` for ${pr.todo}` : " (linked)";
      const seen = pr.state === "open" ? checksLabel(prChecksVerdict(pr, now)) : "";
      out.push(`- #${pr.number}${todo} · ${pr.state}${seen}`);
    }
    if (state.pullRequests.length > 20) {
      out.push(`- …and ${state.pullRequests.length - 20} more`);
    }
  }

  const handoff = [...state.handoffs].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime(),
  )[0];
  if (handoff) {
    out.push("", `#### Last handoff (${formatInstant(handoff.createdAt)})`, "", "**Done**");
    out.push(quoteUntrusted(handoff.done), "", "**Next**", quoteUntrusted(handoff.next));
    if (handoff.questions.length > 0) {
      out.push("", "**Open questions**");
      for (const q of handoff.questions) out.push(`- ${neutralizeInline(q, 500)}`);
    }
  }

  const { spent, budget, tickCap } = goal;
  const slot = slots(state, now);
  const usd = (n: number | undefined) => (n === undefined ? null : formatUsd(n));
  const count = (n: number | undefined) => (n === undefined ? null : formatCount(n));
  const mins = (n: number | undefined) => (n === undefined ? null : formatMinutes(n));
  out.push(
    "",
    "#### Budget",
    "",
    "| ledger | used |",
    "| --- | --- |",
    `| cost (USD) | ${limit(formatUsd(spent.usd), usd(budget.usd))} |`,
    `| tokens | ${limit(formatCount(spent.tokens), count(budget.tokens))} |`,
    `| runner minutes | ${limit(formatMinutes(spent.runnerMinutes), mins(budget.runnerMinutes))} |`,
    `| ticks | ${limit(formatCount(spent.ticks), count(budget.ticks))} |`,
    `| slots (last ${goal.quota.windowHours} h) | ${slot.used} of ${slot.allowed} |`,
    "",
    `Per tick at most ${formatUsd(tickCap.usd)}, ${formatCount(tickCap.tokens)} tokens, ${formatMinutes(tickCap.runnerMinutes)}; a tick that crashes is charged this cap.`,
  );
  const outcome = outcomeWords(outcomeAccounting(goal, state.gates, now));
  out.push("", `**Outcome:** ${outcome.delivered} ${outcome.people}`);

  // A goal running ticks side by side lists each, so no running slice hides behind another.
  if (goal.parallel > 1) {
    const running = runningTicks(state, now);
    if (running.length > 0) {
      out.push("", `#### Running (${running.length} of ${goal.parallel} slots)`, "");
      for (const t of running) {
        const raw = tickRunUrl(goal, t, options.serverUrl);
        const url = raw ? safeUrl(raw) : null;
        const name = url ? `[tick #${t.number}](${url})` : `tick #${t.number}`;
        out.push(
          `- ${t.todo} · ${name} · slot ${t.slot || "1"} · lease until ${formatInstant(t.leaseExpiresAt)}`,
        );
      }
    }
  }

  const wake = decision.nextWakeAt ?? goal.nextWakeAt;
  out.push(
    "",
    wake
      ? `**Next wake:** ${formatInstant(wake)} (${formatRelative(wake, now)})`
      : "**Next wake:** only when something happens (a comment, a review, a check).",
  );

  const latest = [...state.ticks].sort((a, b) => b.number - a.number)[0];
  const run =
    options.runUrl != null
      ? safeUrl(options.runUrl)
      : latest
        ? tickRunUrl(goal, latest, options.serverUrl)
        : null;
  if (run)
    out.push(`**Latest run:** [${latest ? `tick #${latest.number}` : "workflow run"}](${run})`);

  const dead = options.deadLetters ?? [];
  if (dead.length > 0) {
    out.push("", "#### ⚠️ Writes LoopX gave up on", "");
    for (const d of dead.slice(0, 10)) {
      out.push(
        `- ${neutralizeInline(d.what, 200)}: ${neutralizeInline(d.reason, 200)} (after ${d.attempts} attempts)`,
      );
    }
    if (dead.length > 10) out.push(`- …and ${dead.length - 10} more`);
    out.push("", "Check the app's permissions and that the targets still exist.");
  }

  out.push(
    "",
    `<sub>Updated ${formatInstant(now)} · comment \`/loopx help\` for the commands.</sub>`,
  );
  return truncateBody(out.join("\n"), GITHUB_BODY_LIMIT - 200);
}
