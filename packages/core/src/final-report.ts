import { outcomeAccounting, outcomeWords, usd } from "./outcomes.ts";
import type { GoalState } from "./schemas/state.ts";

/**
 * The goal's final report, from state alone: what was delivered, through which PRs, with
 * what evidence, and what it cost. Bounded (a receipt holds 2000 characters): lists are cut
 * with a count of what was left out.
 */
export function finalReportText(state: GoalState): string {
  const done = state.todos.filter((t) => t.status === "done");
  const prs = state.pullRequests;
  // The ledger's totals, not the loaded ticks: a long goal's aggregate carries recent ticks only.
  const spent = state.goal.spent;
  // Totals kept by every transition: finished todos and PRs past the window still count.
  const outcome = outcomeWords(outcomeAccounting(state.goal, state.gates, state.goal.updatedAt));
  const list = (items: string[], max: number) =>
    items.length <= max ? items : [...items.slice(0, max), `… and ${items.length - max} more`];
  const lines = [
    `Goal #${state.goal.issue.number} is done: ${state.goal.objective.title}`.slice(0, 200),
    "",
    // First, so the report's bound never cuts them.
    `Outcome: ${outcome.delivered}`,
    `People: ${outcome.people}`,
    "",
    "Delivered:",
    ...list(
      done.map((t) => `- ${t.key} ${t.title}`.slice(0, 120)),
      8,
    ),
    "",
    "Pull requests:",
    ...list(
      prs.map((p) => {
        const merge = p.monitor.mergeCommitSha
          ? ` (merge ${p.monitor.mergeCommitSha.slice(0, 7)})`
          : "";
        return `- #${p.number} ${p.state}${merge}`;
      }),
      8,
    ),
    "",
    `Evidence: ${state.evidence.length} items.`,
    `Ticks: ${spent.ticks}; runner minutes: ${Math.round(spent.runnerMinutes)}; cost: ${usd(spent.usd)}.`,
  ];
  if (prs.length === 0) lines.splice(lines.indexOf("Pull requests:"), 1, "Pull requests: none");
  return lines.join("\n").slice(0, 2000);
}
