import { type Gate, type Goal, planGateHolds } from "@loopx/core";
import { formatInstant, formatLogin, quoteUntrusted } from "./format.ts";
import { neutralize, neutralizeInline } from "./neutralize.ts";
import type { PullFile } from "./port.ts";
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

/** What approving a PR-bound gate covers (see gatePreview and the outbox's gateCoverage). */
export interface GateCoverage {
  /** The PR, its head, GitHub's counts and CI on that head, in one line (gatePreviewWords). */
  line: string;
  /** The files GitHub lists for the PR at that head (first page), or null when not read. */
  files: { files: PullFile[]; complete: boolean } | null;
}

/**
 * A file name as inline code. Names come from the repository (an agent may have chosen
 * them): the span is longer than any backtick run inside, and nothing in it can mention,
 * command or break the line.
 */
function codeSpan(text: string): string {
  const flat = neutralizeInline(text, 200).replace(/&lt;/g, "<");
  const run = Math.max(0, ...(flat.match(/`+/g) ?? []).map((r) => r.length));
  const fence = "`".repeat(run + 1);
  return `${fence} ${flat} ${fence}`;
}

function coverageLines(c: GateCoverage, pr: number): string[] {
  const out = [`**What an approval covers:** ${neutralizeInline(c.line, 600)}`];
  if (c.files === null) return out;
  for (const f of c.files.files) {
    out.push(`- ${codeSpan(f.filename)} ${f.status}, +${f.additions} −${f.deletions}`);
  }
  if (!c.files.complete) out.push(`- … and more: see the files of #${pr}`);
  return out;
}

/**
 * The comment that opens a gate: what it covers, who can decide, and the exact commands.
 * Rendered again after a decision to show the outcome instead of the commands.
 */
export function renderGateComment(
  gate: Gate,
  goal: Goal,
  coverage: GateCoverage | null = null,
): string {
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
    if (coverage !== null) lines.push("", ...coverageLines(coverage, gate.pr.number));
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
