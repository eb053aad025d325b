/**
 * `bench:loop --real-model`: the same cells and arms with a real model as the agent, each arm
 * played `trials` times per cell (trials interleave the arms, so a drift in the model's API
 * touches every arm alike). A trial's reward is the share of the task's todos that landed; a
 * cell's figure is the mean reward with its 95 % t interval. The figures are the model's, not
 * the fixed agent's, so nothing here writes bench/loop-results.md.
 */
import type { Agent } from "./agent/agent-types.ts";
import type { Arm } from "./arms/arm-types.ts";
import { meanInterval95 } from "./confidence.ts";
import { cellName, cellOf, HORIZON_HOURS, partnerOf, playCell, SEED } from "./play-cell.ts";
import type { LoadedTask } from "./tasks/load-tasks.ts";

export interface TrialCell {
  cell: string;
  arm: string;
  /** One per trial: landed todos over the task's todos. */
  rewards: number[];
}

export async function benchTrials(o: {
  tasks: LoadedTask[];
  /** Every task, where a picked task's shared-file partner is found (default `tasks`). */
  all?: LoadedTask[];
  arms: Arm[];
  agent: Agent;
  trials: number;
  /** Told after every trial, for a run that takes hours. */
  progress?: (line: string) => void;
}): Promise<TrialCell[]> {
  const out: TrialCell[] = [];
  for (const task of o.tasks) {
    // As in the fixed-agent run: a shared-file pair is one cell, for the arms that run two goals.
    const partner = partnerOf(task, o.all ?? o.tasks);
    const cell = partner ? { ...cellOf(task), partner } : cellOf(task);
    const whole = o.arms.filter((a) => !a.ablates);
    const arms = partner ? whole.filter((a) => a.pairs) : whole;
    const rows = arms.map((arm) => ({
      cell: cellName(cell),
      arm: arm.name,
      rewards: [] as number[],
    }));
    for (let trial = 1; trial <= o.trials; trial++) {
      for (const [i, arm] of arms.entries()) {
        const m = await playCell(cell, arm, o.agent);
        const reward = m.total === 0 ? 0 : m.landed / m.total;
        rows[i]!.rewards.push(reward);
        o.progress?.(
          `${task.spec.id} · ${arm.name} · trial ${trial}/${o.trials}: ${m.landed}/${m.total} landed`,
        );
      }
    }
    out.push(...rows);
  }
  return out;
}

export function renderTrials(o: { model: string; cells: TrialCell[] }): string {
  const pct = (v: number) => `${(Math.min(1, Math.max(0, v)) * 100).toFixed(0)} %`;
  const rows = o.cells.map((c) => {
    const ci = meanInterval95(c.rewards);
    return `| ${c.cell} | ${c.arm} | ${c.rewards.length} | ${pct(ci.mean)} | ${pct(ci.low)} – ${pct(ci.high)} |`;
  });
  return [
    `# bench:loop --real-model ${o.model}`,
    "",
    `The agent is the real ${o.model} CLI, not this repository's fixed scripted agent: these figures are that model's on this run and are not written to bench/loop-results.md.`,
    `Each trial: the task's repository on a fresh sandbox, CI on PR heads, one scripted person, ${HORIZON_HOURS} simulated hours, seed ${SEED}; reward = landed todos / the task's todos (landed = its hidden test passes on main).`,
    "Mean reward per cell and arm, with its 95 % confidence interval (Student's t, clipped to 0–100 %).",
    "",
    "| cell | arm | trials | mean reward | 95 % CI |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    "",
  ].join("\n");
}
