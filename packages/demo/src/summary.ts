/** The demo's closing lines: what happened, what it cost, and where to look. */
import { relative } from "node:path";
import type { GoalState } from "@loopx/core";
import { DEMO_REPO } from "./demo-project.ts";
import type { ScenarioFacts } from "./scenario-types.ts";
import type { Stack } from "./start-stack.ts";

export function summaryLines(
  stack: Stack,
  facts: ScenarioFacts,
  state: GoalState | null,
  elapsedMs: number,
): string[] {
  const spent = state?.goal.spent;
  const todos = (state?.todos ?? []).map((t) => `${t.key} ${t.kind} ${t.status}`).join(", ");
  const base = `${stack.sandbox.url}/_sandbox/issues/${DEMO_REPO.fullName}`;
  return [
    "",
    `Done in ${(elapsedMs / 1000).toFixed(1)} s: ${DEMO_REPO.fullName}#${facts.issue} is ${state?.goal.status ?? "unknown"}.`,
    `  ${facts.merged.map((m) => `PR #${m.pr} merged as ${m.sha.slice(0, 7)}`).join(", ") || "nothing merged"}; todos: ${todos}`,
    spent
      ? `  ticks: ${spent.ticks}; tokens: ${spent.tokens}; runner minutes: ${spent.runnerMinutes.toFixed(1)}; cost: $${spent.usd.toFixed(2)}`
      : "",
    "",
    ...(facts.finalReport
      ? [
          `LoopX's final report on #${facts.issue}:`,
          ...facts.finalReport
            .split("\n")
            .filter((l) => !l.startsWith("<!--"))
            .map((l) => `  | ${l}`),
          "",
        ]
      : []),
    "Where to look (while the demo is running):",
    `  dashboard        ${stack.appUrl}/loopx`,
    `  the goal         ${stack.appUrl}/loopx/goals/${facts.goalId}`,
    `  the issue        ${base}/${facts.issue}  (the sandbox's JSON: body, comments, state)`,
    ...facts.merged.map((m) => `  ${`the PR #${m.pr}`.padEnd(17)}${base}/${m.pr}`),
    `  loopx status     npm run loopx -- status --url ${stack.appUrl}`,
    `  loopx doctor     npm run loopx -- doctor --settings ${relative(process.cwd(), stack.settingsFile)}`,
  ].filter((l, i, all) => l !== "" || all[i - 1] !== "");
}
