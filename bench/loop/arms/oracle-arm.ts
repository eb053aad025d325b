/**
 * The oracle arm of `bench:loop`: the cost floor. It knows the plan (the task's todos in their
 * final order, a revision's included), when CI has finished and when a person has answered,
 * so it runs the agent only when there is something to do: a todo's slices, one answer per
 * failed check or change request, and nothing while it waits. It never polls, so it bills only
 * agent jobs. One branch and one PR per todo, each merged before the next starts, so no two of
 * its changes ever conflict. No control plane can spend less on the same agent and people.
 */
import { memoryTree } from "../agent/memory-tree.ts";
import { runAgent } from "../agent/run-agent.ts";
import { hash32 } from "../agent/seeded-random.ts";
import { resolveCommit } from "../world/git-tree.ts";
import { RepoRest } from "../world/rest.ts";
import { emptyRun, sliceRecord } from "./arm-run.ts";
import type { Arm, ArmContext, ArmRun } from "./arm-types.ts";
import { billedMinutes, SETUP_MINUTES, SLICE_MINUTES } from "./billing.ts";
import {
  hasFeedback,
  installJobIdentity,
  openPull,
  openPullFrom,
  readIssue,
  readTools,
} from "./plain-loop/github.ts";
import { driver } from "./plain-loop/schedule.ts";
import { treeDiff } from "./plain-loop/tree-diff.ts";

const MINUTE = 60_000;
/** Slices one todo may take before the oracle gives it up (a stuck agent never finishes). */
const MAX_SLICES_PER_TODO = 12;

export function oracleArm(): Arm {
  return {
    name: "oracle",
    async run(ctx: ArmContext): Promise<ArmRun> {
      const { world, cell, skill } = ctx;
      const { sandbox, task } = world;
      const out = emptyRun("oracle");
      const asMaintainer = new RepoRest(sandbox.url, world.repo, world.token("maintainer"));
      const issue = await asMaintainer.createIssue(task.spec.title, task.spec.objective);
      const identity = installJobIdentity(sandbox, world.repo, "oracle-agent");
      const d = driver(world);
      const until = sandbox.clock.now() + cell.horizonHours * 60 * MINUTE;
      let n = 0;

      const exists = async (branch: string) =>
        (await resolveCommit(sandbox.gitDir(world.repo), `refs/heads/${branch}`)) !== null;

      /** One agent job on `branch` for `title`; true when the agent says the todo is done. */
      const slice = async (key: string, title: string, branch: string): Promise<boolean> => {
        n += 1;
        const start = sandbox.clock.now();
        const rest = identity.client();
        const tree = (await exists(branch))
          ? await world.branchTree(branch)
          : await world.mainTree();
        const pull = await openPullFrom(rest, branch);
        const checkout = memoryTree(tree);
        const outcome = runAgent({
          prompt: `## Your todo: ${title}\n\nWork on this todo of #${issue} until it is done.\n`,
          tree: checkout,
          tools: readTools(await readIssue(rest, issue), pull),
          skill,
          profile: cell.profile,
          seed: hash32(["oracle", String(cell.seed), String(n)]),
        });
        const jobMinutes = SETUP_MINUTES + SLICE_MINUTES;
        await d.advanceTo(start + jobMinutes * MINUTE);
        const files = treeDiff(tree, checkout.snapshot());
        const pushed = Object.keys(files).sort();
        if (pushed.length > 0) {
          sandbox.push(world.repo, branch, files, identity.login, `${key}: ${outcome.summary}`);
          await sandbox.idle();
          if (pull === null) {
            const opened = await openPull(rest, branch, title, `${title} (#${issue})`);
            if (opened !== null) out.pullsOpened.push(opened);
          }
        }
        out.slices.push(sliceRecord(start, outcome, pushed));
        out.jobs.push({ at: start, kind: "agent", minutes: billedMinutes(jobMinutes) });
        await d.settle();
        return outcome.finishedTodo && !outcome.died;
      };

      for (const key of task.todoOrder()) {
        const title = task.todo(key).title;
        const branch = `oracle/${key}`;
        let done = false;
        for (let i = 0; i < MAX_SLICES_PER_TODO && !done; i++) {
          if (sandbox.clock.now() >= until) break;
          done = await slice(key, title, branch);
        }
        if (!done) {
          out.notes.push(`${key} never finished in ${MAX_SLICES_PER_TODO} slices`);
          break;
        }
        // Wait for the person and CI, answering exactly when they ask for something.
        let merged = false;
        while (!merged && sandbox.clock.now() < until) {
          await d.settle();
          const pull = await openPullFrom(identity.client(), branch);
          if (pull === null) {
            merged = true;
            break;
          }
          if (hasFeedback(pull)) {
            await slice(key, title, branch);
            continue;
          }
          const next = Math.min(...world.person.pending().map((a) => a.dueAt), until);
          await d.advanceTo(Math.max(next, sandbox.clock.now() + MINUTE));
        }
        if (!merged) {
          out.notes.push(`${key}'s PR was not merged before the horizon`);
          break;
        }
      }
      if (out.notes.length === 0) out.stoppedAt = sandbox.clock.now();
      return out;
    },
  };
}
