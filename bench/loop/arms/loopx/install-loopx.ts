/**
 * LoopX installed on a cell's repository as a person installs it — its config and tick
 * workflow pushed to main, the world's `ci` check required, the App started — and each of the
 * cell's objectives filed as an issue and labelled `loopx`, as a user starts a goal.
 */
import { z } from "zod";
import { TICK_WORKFLOW } from "../../../../test/support/app-harness.ts";
import { requireChecks } from "../../../../test/support/required-checks.ts";
import type { Skill } from "../../agent/agent-types.ts";
import type { CellWorld } from "../../world/cell-world.ts";
import type { RepoRest } from "../../world/rest.ts";
import { objectivesOf } from "../arm-run.ts";
import type { ArmContext, CellSpec, LoopxPart } from "../arm-types.ts";
import { type ActionHarness, SHIPPED_TICK_WORKFLOW } from "./action-tick.ts";
import { loopxConfig } from "./loopx-config.ts";
import { type LoopxOnSandbox, startLoopxOnSandbox } from "./start-app.ts";

/** The kernel's ladder for LoopX without backoff: no wait after any stalled tick. */
const NO_BACKOFF: readonly number[] = [0];

const Labelled = z.array(z.object({ name: z.string() }));

export interface LoopxGoal {
  skill: Skill;
  issue: number;
  goalId: string;
}

export async function installLoopx(opts: {
  world: CellWorld;
  cell: CellSpec;
  /** The component the ablation leaves out (config-level ones are written here). */
  without?: LoopxPart | undefined;
  throughAction?: ActionHarness | undefined;
}): Promise<LoopxOnSandbox> {
  const { world, cell } = opts;
  const { sandbox } = world;
  sandbox.push(
    world.repo,
    "main",
    {
      ".github/loopx.yml": loopxConfig(
        opts.without === "gates" ? null : cell.task.spec.gate.paths,
        opts.without === "budgets" ? undefined : cell.budgetUsd,
        opts.throughAction,
      ),
      ".github/workflows/loopx-tick.yml": opts.throughAction
        ? SHIPPED_TICK_WORKFLOW
        : TICK_WORKFLOW,
    },
    world.people.maintainer,
    "Install LoopX",
  );
  // The owner requires the world's `ci` check, as LoopX's setup asks: without a required
  // check LoopX (rightly) asks a person about every green head.
  await requireChecks(sandbox, world.repo, ["ci"]);
  await sandbox.idle();
  return startLoopxOnSandbox({
    sandbox,
    repo: world.repo,
    ...(opts.without === "backoff" ? { backoffLadderMinutes: NO_BACKOFF } : {}),
  });
}

/** Files each objective of the cell as the maintainer, and finds the goal LoopX made of it. */
export async function fileGoals(
  ctx: ArmContext,
  loopx: LoopxOnSandbox,
  maintainer: RepoRest,
  settle: () => Promise<void>,
): Promise<LoopxGoal[]> {
  const goals: LoopxGoal[] = [];
  for (const { task, skill } of objectivesOf(ctx)) {
    const number = await maintainer.createIssue(task.spec.title, task.spec.objective);
    // An outsider plants an instruction for agents on the issue at once.
    if (ctx.cell.profile === "injected") ctx.world.person.outsiderInjection(number);
    await maintainer.call("POST", `/issues/${number}/labels`, Labelled, { labels: ["loopx"] });
    await settle();
    const found = await loopx.store.findGoalByIssue(loopx.repo.id, number);
    if (!found) throw new Error(`LoopX made no goal of #${number}`);
    goals.push({ skill, issue: number, goalId: found.goal.id });
  }
  return goals;
}
