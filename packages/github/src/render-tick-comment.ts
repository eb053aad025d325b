import { distinctEvidence, evidenceView, type GoalState, todoStateWords } from "@loopx/core";
import { formatCount, formatMinutes, formatUsd, quoteUntrusted, tickRunUrl } from "./format.ts";
import { escapeTags, neutralize, neutralizeInline } from "./neutralize.ts";
import { safeUrl } from "./safe-url.ts";
import { GITHUB_BODY_LIMIT, truncateBody } from "./truncate-body.ts";

export interface TickCommentOptions {
  /** GitHub's web root (github.com, GHES, the sandbox): where the run link points. */
  serverUrl: string;
  /** When the comment is written: a todo's state (running, waiting) is read at this instant. */
  now?: Date;
}

const MAX_EVIDENCE = 30;

/**
 * One comment per productive tick: what changed, the evidence (collapsed), the handoff, the
 * run and what it cost. A tick missing from the state yields a short notice rather than a
 * throw: the outbox must always have something valid to write.
 */
export function renderTickComment(
  state: GoalState,
  tickId: string,
  options: TickCommentOptions,
): string {
  const { goal } = state;
  const tick = state.ticks.find((t) => t.id === tickId);
  if (tick === undefined) {
    return "### LoopX tick\n\nThis tick is no longer in the goal's recent state; see the status comment.";
  }
  const todo = state.todos.find((t) => t.key === tick.todo);
  const title = todo ? ` ${neutralizeInline(todo.title)}` : "";
  const outcome = tick.outcome ?? "unfinished";
  const out: string[] = [
    `### LoopX tick #${tick.number} · ${tick.todo}${title} · ${outcome}${tick.failure ? ` (${tick.failure})` : ""}`,
    "",
  ];

  const changed: string[] = [];
  for (const t of state.todos) {
    if (t.completion?.tickId === tick.id) changed.push(`- ${t.key} done`);
  }
  if (todo && todo.completion?.tickId !== tick.id) {
    const now = options.now ?? tick.finishedAt ?? tick.startedAt;
    changed.push(`- ${todo.key}: ${todoStateWords(state, todo, now)}`);
  }
  const evidence = distinctEvidence(state.evidence.filter((e) => e.tickId === tick.id));
  const commits = evidence.filter((e) => e.kind === "commit").length;
  if (commits > 0) changed.push(`- ${commits} commit${commits === 1 ? "" : "s"}`);
  out.push("**What changed**", "", ...(changed.length > 0 ? changed : ["- nothing material"]));

  if (evidence.length > 0) {
    out.push("", `<details><summary>Evidence (${evidence.length})</summary>`, "");
    for (const e of evidence.slice(0, MAX_EVIDENCE)) out.push(...evidenceItem(e));
    if (evidence.length > MAX_EVIDENCE) out.push(`- …and ${evidence.length - MAX_EVIDENCE} more`);
    out.push("", "</details>");
  }

  const handoff = state.handoffs.find((h) => h.tickId === tick.id);
  if (handoff) {
    out.push("", "**Handoff: done**", quoteUntrusted(handoff.done), "");
    out.push("**Handoff: next**", quoteUntrusted(handoff.next));
    if (handoff.questions.length > 0) {
      out.push("", "**Open questions**");
      for (const q of handoff.questions) out.push(`- ${neutralizeInline(q, 500)}`);
    }
  }

  out.push("");
  const run = tickRunUrl(goal, tick, options.serverUrl);
  if (run) out.push(`**Run:** [workflow run ${tick.run?.id}](${run})`);
  const harness = neutralizeInline(tick.harness, 64);
  if (tick.cost) {
    out.push(
      `**Usage:** ${formatUsd(tick.cost.usd)} · ${formatCount(tick.cost.tokens)} tokens · ${formatMinutes(tick.cost.runnerMinutes)} · harness ${harness}${tick.slotSpent ? " · 1 slot" : ""}`,
    );
  } else {
    out.push(`**Usage:** not reported yet · harness ${harness}`);
  }
  return truncateBody(out.join("\n"), GITHUB_BODY_LIMIT - 200);
}

/**
 * One evidence item: its one-line summary (marked when it is only the agent's word), and the
 * raw text behind it collapsed, in a <pre> with blank lines dropped (a blank line would end
 * the HTML block) and every line indented into the list item (an unindented one would leave
 * it, and `# pass 4` would render as a heading).
 */
function evidenceItem(e: GoalState["evidence"][number]): string[] {
  const view = evidenceView(e);
  const url = e.url ? safeUrl(e.url) : null;
  const line = neutralizeInline(view.line, 300);
  const sha = e.sha ? ` \`${e.sha.slice(0, 12)}\`` : "";
  const stale = e.stale ? " (stale)" : "";
  const claimed = view.claimed ? " _(the agent's claim, not checked)_" : "";
  const item = `- **${e.kind}**${sha} ${url ? `[${line}](${url})` : line}${claimed}${stale}`;
  if (view.detail === null) return [item];
  const raw = escapeTags(neutralize(view.detail).replace(/&/g, "&amp;"))
    .split("\n")
    .filter((l) => l.trim() !== "")
    .join("\n  ");
  return [item, `  <details><summary>output</summary><pre>${raw}</pre></details>`];
}
