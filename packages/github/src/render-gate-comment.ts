import { type Gate, type Goal, planGateHolds } from "@loopx/core";
import { formatInstant, formatLogin, quoteUntrusted } from "./format.ts";
import { neutralize } from "./neutralize.ts";
import { GITHUB_BODY_LIMIT, truncateBody } from "./truncate-body.ts";

/**
 * The commands that decide a gate, exactly as a person should type them. Built from a
 * validated gate key, never from free text, so they are shown as-is (not neutralised) in
 * code spans that a person can copy. They never sit on a comment's first line, so our own
 * comment is never read back as a command.
 */
export function gateCommands(gateKey: string): { approve: string; reject: string } {
  return { approve: `/loopx approve ${gateKey}`, reject: `/loopx reject ${gateKey} <reason>` };
}

/** Who may decide, in words: the asked or owning logins, or any writer (the app checks). */
export function gateDeciders(gate: Gate, goal: Goal): string {
  const asked = gate.requestedFrom.length > 0 ? gate.requestedFrom : goal.owners;
  return `${asked.map(formatLogin).join(", ")} or anyone with write access to this repository`;
}

/**
 * The comment that opens a gate: what it covers, who can decide, and the exact commands.
 * Rendered again after a decision to show the outcome instead of the commands.
 */
export function renderGateComment(gate: Gate, goal: Goal): string {
  const { approve, reject } = gateCommands(gate.key);
  const scopes = gate.scopes.map((s) => `\`${s}\``).join(", ");
  const lines = [
    gate.status === "open"
      ? `### 🚦 Gate ${gate.key} needs a decision`
      : `### 🚦 Gate ${gate.key}: ${gate.status}`,
    "",
    quoteUntrusted(gate.question, 2000),
    "",
  ];
  const held = planGateHolds(gate);
  lines.push(
    held
      ? `**Holds:** ${held.join(", ")}, proposed by an agent: they run only once a writer approves; other todos keep running.`
      : `**Covers:** ${scopes}. Only work that needs these scopes waits; other todos keep running.`,
  );
  if (gate.todo !== null) lines.push(`**Asked for by:** todo ${gate.todo}`);
  if (gate.pr !== null) {
    lines.push(
      `**Pull request:** #${gate.pr.number} at \`${gate.pr.headSha.slice(0, 12)}\`. An approval covers this head only; a push reopens the gate. An approving review of that head also counts.`,
    );
  }
  if (gate.status === "open") {
    lines.push(
      `**Who can decide:** ${gateDeciders(gate, goal)}.`,
      "",
      `To approve, comment \`${approve}\` (a note may follow on the same line).`,
      `To reject, comment \`${reject}\`.`,
      "",
      "_The command must be the first line of a new comment, not quoted and not in code._",
    );
  } else {
    const by = gate.resolvedBy ? ` by ${formatLogin(gate.resolvedBy)}` : "";
    const at = gate.resolvedAt ? ` at ${formatInstant(gate.resolvedAt)}` : "";
    lines.push(`**Decided:** ${gate.status}${by}${at}.`);
    if (gate.note) lines.push("", quoteUntrusted(gate.note, 2000));
  }
  lines.push("", `<sub>Goal: ${neutralize(goal.objective.title.replace(/\s+/g, " "))}</sub>`);
  return truncateBody(lines.join("\n"), GITHUB_BODY_LIMIT - 200);
}
