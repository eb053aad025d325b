/**
 * Arm B0 of `bench:loop`, the stateless reference: what a scheduled agent action does with no
 * memory of its own. On every firing of the same hourly cron as B1 (one run at a time, as
 * B1's concurrency group), one run checks out a fresh `main`, runs the fixed agent once on a
 * prompt that holds only the objective, pushes what changed to a new branch `cron/<run>` and
 * opens a new PR from it. It never looks for its earlier PRs, so until a person merges one,
 * every run redoes the same work and opens a duplicate; it never stops by itself.
 */
import { memoryTree } from "../agent/memory-tree.ts";
import { appPush } from "../world/app-push.ts";
import { RepoRest } from "../world/rest.ts";
import { agentOf, emptyRun, sliceRecord } from "./arm-run.ts";
import type { Arm, ArmContext, ArmRun } from "./arm-types.ts";
import { loadRecipe } from "./b1/b1-recipe.ts";
import { billedMinutes, SETUP_MINUTES, SLICE_MINUTES } from "./billing.ts";
import { installJobIdentity, openPull, readIssue, readTools } from "./plain-loop/github.ts";
import { driver, runSchedule } from "./plain-loop/schedule.ts";
import { treeDiff } from "./plain-loop/tree-diff.ts";

const MINUTE = 60_000;

export function b0Arm(): Arm {
  return {
    name: "b0",
    async run(ctx: ArmContext): Promise<ArmRun> {
      // The same schedule as B1, read from its workflow, so the two differ only in state.
      const { cron } = loadRecipe();
      const { world, cell, skill } = ctx;
      const { sandbox } = world;
      const out = emptyRun("b0");
      const agent = agentOf(ctx.cell, out, ctx.agent);
      // The issue is where people talk about the objective; the agent's read tools show its
      // comments, as every arm's do. The prompt itself carries only the objective.
      const asMaintainer = new RepoRest(sandbox.url, world.repo, world.token("maintainer"));
      const issue = await asMaintainer.createIssue(cell.task.spec.title, cell.task.spec.objective);
      // An outsider plants an instruction for agents on the issue at once.
      if (cell.profile === "injected") world.person.outsiderInjection(issue);
      const identity = installJobIdentity(sandbox, world.repo, "b0-cron-agent");
      const d = driver(world);
      const until = sandbox.clock.now() + cell.horizonHours * 60 * MINUTE;

      const run = async (n: number): Promise<void> => {
        const start = sandbox.clock.now();
        const rest = identity.client();
        const { tree, sha: base } = await world.checkout("main");
        const checkout = memoryTree(tree);
        const outcome = await agent({
          prompt: cell.task.spec.objective,
          tree: checkout,
          // Stateless: it keeps no pull request of its own to read.
          tools: readTools(await readIssue(rest, issue), null),
          skill,
          profile: cell.profile,
        });
        const jobMinutes = SETUP_MINUTES + SLICE_MINUTES;
        await d.advanceTo(start + jobMinutes * MINUTE);
        const files = treeDiff(tree, checkout.snapshot());
        const pushed = Object.keys(files).sort();
        let refused = false;
        if (pushed.length > 0) {
          const branch = `cron/${n}`;
          const sent = appPush(
            world,
            branch,
            files,
            identity.login,
            `cron run ${n}: ${outcome.summary}`,
            base,
          );
          refused = "refused" in sent;
          await sandbox.idle();
          // A refused push fails the run: no branch, so no pull request either.
          const opened = refused
            ? null
            : await openPull(
                identity.client(),
                branch,
                `Scheduled agent run ${n}`,
                `Work on #${issue} by scheduled run ${n}.`,
              );
          if (opened !== null) out.pullsOpened.push(opened);
        }
        out.slices.push(
          refused
            ? sliceRecord(start, { ...outcome, progressed: false }, [])
            : sliceRecord(start, outcome, pushed),
        );
        out.jobs.push({ at: start, kind: "agent", minutes: billedMinutes(jobMinutes) });
        await d.settle();
      };

      // No stop of its own: it runs every firing up to the horizon.
      await runSchedule({ world, cron, until, run, finished: async () => false }, d);
      return out;
    },
  };
}
