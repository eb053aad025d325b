import type { ActionHarness } from "./action-tick.ts";

/**
 * `.github/loopx.yml`: the shell harness, npm test, the merge gate, the task's path rule and
 * the goal's USD budget when the cell sets one. Gate paths null: no gate at all (`gates: []`
 * turns off even the default merge gate), as LoopX without its gates is installed.
 */
export function loopxConfig(
  gatePaths: readonly string[] | null,
  budgetUsd?: number,
  harness: ActionHarness = "shell",
): string {
  const lines = [
    "harness:",
    `  default: ${harness}`,
    ...(harness === "claude-code" ? ["  allowedTools: [Bash]"] : []),
    "validationCommand: npm test",
  ];
  if (gatePaths === null) lines.push("gates: []");
  else {
    lines.push("gates:", "  - when: merge", "    scopes: [merge]");
    if (gatePaths.length > 0) {
      const underGithub = gatePaths.every((p) => p.startsWith(".github/"));
      const scope = underGithub ? "write:.github" : "write:guarded";
      lines.push(`  - paths: [${gatePaths.map((p) => JSON.stringify(p)).join(", ")}]`);
      lines.push(`    scopes: [${scope}]`);
    }
  }
  if (budgetUsd !== undefined) lines.push("budgets:", "  goal:", `    usd: ${budgetUsd}`);
  return `${lines.join("\n")}\n`;
}
