import {
  distinctEvidence,
  evidenceView,
  type GoalState,
  type PullRequest,
  stateWordsOf,
} from "@loopx/core";
import { formatInstant, quoteUntrusted } from "./format.ts";
import { neutralizeInline } from "./neutralize.ts";
import { breakIssueRefs } from "./render-pull-body.ts";
import { safeUrl } from "./safe-url.ts";
import { GITHUB_BODY_LIMIT, truncateBody } from "./truncate-body.ts";

const line = (text: string, max = 300) => breakIssueRefs(neutralizeInline(text, max));

/**
 * The reviewer handoff: ONE sticky comment per linked PR, rewritten as ticks push — the goal,
 * the todo it serves, what changed and why, the evidence, how to verify, open questions.
 * Everything an agent or a person wrote is neutralised (mentions, commands, issue refs).
 */
export function renderPrHandoff(state: GoalState, pr: PullRequest, now: Date): string {
  const goal = state.goal;
  const served = new Set([...(pr.todo ? [pr.todo] : []), ...pr.monitor.todos]);
  const todos = state.todos.filter((t) => served.has(t.key));
  const ticks = state.ticks.filter((t) => served.has(t.todo));
  const tickIds = new Set(ticks.map((t) => t.id));
  const handoff = state.handoffs
    .filter((h) => tickIds.has(h.tickId))
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
  const evidence = distinctEvidence(
    state.evidence
      .filter((e) => (e.todo !== null && served.has(e.todo)) || (e.tickId && tickIds.has(e.tickId)))
      .sort((a, b) => b.observedAt.getTime() - a.observedAt.getTime()),
  ).slice(0, 8);
  const words = stateWordsOf(state, now);

  const out = [
    `### LoopX reviewer handoff · goal #${goal.issue.number}`,
    "",
    `**Goal:** ${line(goal.objective.title)}`,
    `**Serves:** ${todos.map((t) => `${t.key} ${line(t.title, 120)} (${line(words(t), 120)})`).join("; ") || "—"}`,
    `**Head:** \`${pr.headSha.slice(0, 12)}\``,
  ];
  if (handoff) {
    out.push("", "#### What changed and why", quoteUntrusted(handoff.done, 1500));
    out.push("", "#### Next", quoteUntrusted(handoff.next, 800));
  }
  out.push("", "#### Evidence");
  if (evidence.length === 0) out.push("- none recorded yet");
  // Each fact once, in its one-line summary: the raw output stays behind the tick comment's
  // collapsed block and the run's log.
  for (const e of evidence) {
    const view = evidenceView(e);
    const url = e.url ? safeUrl(e.url) : null;
    const link = url ? ` ([link](${url}))` : "";
    const claimed = view.claimed ? " _(the agent's claim, not checked)_" : "";
    out.push(
      `- ${e.kind}: ${line(view.line, 200)}${claimed}${link} · ${formatInstant(e.observedAt)}`,
    );
  }
  const checks = pr.monitor.checks;
  if (checks.length > 0) {
    out.push(
      `- checks on this head: ${checks.map((c) => `${line(c.name, 60)} ${c.status}`).join(", ")}`,
    );
  }
  out.push("", "#### How to verify");
  out.push(
    goal.validationCommand
      ? `Check out \`${line(pr.headRef, 100)}\` and run \`${line(goal.validationCommand, 200).replaceAll("`", "'")}\`.`
      : `Check out \`${line(pr.headRef, 100)}\` and run the repository's tests.`,
  );
  const questions = handoff?.questions ?? [];
  out.push("", "#### Open questions");
  if (questions.length === 0) out.push("- none");
  for (const q of questions.slice(0, 10)) out.push(`- ${line(q, 300)}`);
  out.push(
    "",
    "<sub>Updated by LoopX as ticks push. LoopX never merges: approve the current head to resolve the merge gate.</sub>",
  );
  return truncateBody(out.join("\n"), GITHUB_BODY_LIMIT - 200);
}
