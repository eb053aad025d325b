import type { HarnessResult } from "@loopx/core";

/** Markdown for the job summary: todo, outcome, evidence, handoff, cost (and the issue link). */
export function renderResult(options: {
  title: string;
  result: HarnessResult;
  reason?: string;
  issueUrl?: string;
  extra?: string[];
}): string {
  const { result } = options;
  const outcome = result.failure ? `${result.outcome} (${result.failure})` : result.outcome;
  const lines = [`### ${options.title}`, ""];
  lines.push(`- **Outcome:** ${outcome}${options.reason ? ` — ${flat(options.reason)}` : ""}`);
  if (result.validation) {
    const v = result.validation;
    lines.push(
      `- **Validation:** \`${v.command}\` ${v.passed ? "passed" : `failed (exit ${v.exitCode ?? "none"})`}`,
    );
  }
  if (result.commits.length) {
    lines.push(
      `- **Commits:** ${result.commits.map((c) => `\`${c.sha.slice(0, 7)}\` ${flat(c.message)}`).join("; ")}`,
    );
  }
  const c = result.cost;
  lines.push(
    `- **Cost:** $${c.usd.toFixed(4)}, ${c.tokens} tokens, ${c.runnerMinutes.toFixed(1)} runner minutes`,
  );
  for (const line of options.extra ?? []) lines.push(`- ${line}`);
  if (options.issueUrl) lines.push(`- **Goal:** ${options.issueUrl}`);
  if (result.evidence.length) {
    lines.push("", "**Evidence**", "");
    for (const e of result.evidence)
      lines.push(`- ${e.kind}: ${flat(e.summary)}${e.url ? ` (${e.url})` : ""}`);
  }
  lines.push(
    "",
    "**Handoff**",
    "",
    `- Done: ${flat(result.handoff.done)}`,
    `- Next: ${flat(result.handoff.next)}`,
  );
  for (const q of result.handoff.questions) lines.push(`- Question: ${flat(q)}`);
  return `${lines.join("\n")}\n`;
}

function flat(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
