import { decide } from "./decide.ts";
import { distinctEvidence, evidenceView, oneLine } from "./evidence-summary.ts";
import { fnv1a64 } from "./failure-signature.ts";
import { durationWords, usd } from "./outcomes.ts";
import type { GoalState } from "./schemas/state.ts";
import { goalStateWords } from "./state-words.ts";

/** A digest is one comment: its text stays well inside an occasion's 2000 characters. */
const MAX_CHARS = 1900;
const DONE_SHOWN = 6;
const EVIDENCE_SHOWN = 3;

export interface GoalDigest {
  /** The comment's text; titles and evidence are the agent's words, rendered neutralized. */
  text: string;
  /**
   * What the digest says, without its dates: equal when nothing changed since `since`, so
   * a goal that made no move gets no second digest about it.
   */
  fingerprint: string;
}

const day = (at: Date) => `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/**
 * What a person who has not looked for a while needs, from state alone: what was done since
 * `since` and its evidence, spend against budget, what runs next and what waits for whom.
 */
export function goalDigest(state: GoalState, since: Date, now: Date): GoalDigest {
  const { goal } = state;
  const after = (at: Date) => at.getTime() > since.getTime();
  const done = state.todos.filter(
    (t) => t.status === "done" && t.completion !== null && after(t.completion.at),
  );
  // Each fact once: a run reported twice is one item.
  const evidence = distinctEvidence(state.evidence.filter((e) => after(e.observedAt)));
  const decision = decide(state, now, "digest");
  const spent = goal.spent;
  const budget = goal.budget;
  const of = (n: number | undefined, show: (v: number) => string) =>
    n === undefined ? "" : ` of ${show(n)}`;
  const next = decision.route === "run" && decision.todo !== null ? decision.todo : null;
  const nextTodo = next === null ? null : state.todos.find((t) => t.key === next);
  const waiting = state.gates.filter((g) => g.status === "open");
  const words = goalStateWords(state, decision, now);

  const body: string[] = [];
  body.push(
    done.length === 0
      ? "- Done: nothing new."
      : `- Done: ${done
          .slice(0, DONE_SHOWN)
          .map((t) => `${t.key} ${oneLine(t.title, 80)}`)
          .join("; ")}${done.length > DONE_SHOWN ? `; and ${done.length - DONE_SHOWN} more` : ""}.`,
  );
  if (evidence.length > 0) {
    body.push(`- Evidence: ${evidence.length} new item${evidence.length === 1 ? "" : "s"}.`);
    for (const e of evidence.slice(-EVIDENCE_SHOWN).reverse()) {
      const view = evidenceView(e);
      const claimed = view.claimed ? " (the agent's claim, not checked)" : "";
      body.push(`  - ${e.todo ? `${e.todo}: ` : ""}${oneLine(view.line, 140)}${claimed}`);
    }
  }
  body.push(
    `- Spent: ${usd(spent.usd)}${of(budget.usd, usd)}; ${spent.ticks}${of(budget.ticks, String)} ticks; ${Math.round(spent.runnerMinutes)}${of(budget.runnerMinutes, (v) => String(Math.round(v)))} runner minutes.`,
  );
  body.push(`- Now: ${words}.`);
  if (nextTodo) body.push(`- Next: ${nextTodo.key} ${oneLine(nextTodo.title, 100)}.`);
  for (const gate of waiting.slice(0, 3)) {
    const who = gate.requestedFrom.length > 0 ? gate.requestedFrom : goal.owners;
    const asked = gate.pr ? ` on #${gate.pr.number}` : "";
    body.push(
      `- Waiting for ${who.join(", ")}: ${gate.key}${asked}, open for ${durationWords(now.getTime() - gate.openedAt.getTime())}.`,
    );
  }
  // What the goal is, not what changed in the window nor how long things took: a goal that
  // made no move since the last digest fingerprints the same.
  const facts = [
    goal.outcomes.todosDone,
    goal.outcomes.prsMerged,
    state.evidence.at(-1)?.id ?? "",
    spent.ticks,
    usd(spent.usd),
    words,
    next ?? "",
    waiting.map((g) => g.key).join(","),
  ];
  // Posted on the goal's own issue: the issue says which goal.
  const head = `Since ${day(since)}:`;
  const text = [head, "", ...body].join("\n");
  return {
    text: text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text,
    fingerprint: fnv1a64(facts.join("\n")),
  };
}
