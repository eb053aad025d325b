/**
 * The oracle arm of `bench:loop`: the cost floor. It knows when CI has finished and when a
 * person has answered, so it runs the agent only when there is something to do: one slice to
 * plan (the agent brings the plan, as in every arm; the work it discovers is worked right
 * after the todo that revealed it), a todo's slices, one answer per failed check or change
 * request, and nothing while it waits. It never polls, so it bills only agent jobs. One branch
 * and one PR per todo, each merged before the next starts, so no two of its changes ever
 * conflict. No control plane can spend less on the same agent and people. Given a budget, it
 * holds each slice to what is left (the metering proxy's ceiling) and starts none once it is
 * spent.
 */
import type { AgentOutcome, Skill } from "../agent/agent-types.ts";
import { memoryTree } from "../agent/memory-tree.ts";
import type { LoadedTask } from "../tasks/load-tasks.ts";
import { appPush } from "../world/app-push.ts";
import { formatPatch } from "../world/patch-files.ts";
import { RepoRest } from "../world/rest.ts";
import { agentOf, emptyRun, objectivesOf, sliceRecord } from "./arm-run.ts";
import type { Arm, ArmContext, ArmRun } from "./arm-types.ts";
import { billedMinutes, SETUP_MINUTES, SLICE_MINUTES } from "./billing.ts";
import { meteredSlice, modelUsd } from "./metered-slice.ts";
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
    pairs: true,
    async run(ctx: ArmContext): Promise<ArmRun> {
      const { world, cell } = ctx;
      const { sandbox } = world;
      const out = emptyRun("oracle");
      const agent = agentOf(ctx.cell, out, ctx.agent);
      const asMaintainer = new RepoRest(sandbox.url, world.repo, world.token("maintainer"));
      // Every objective is filed at once; the oracle works them one after the other, so no
      // two of its branches ever change a file at the same time.
      const goals: { task: LoadedTask; skill: Skill; issue: number }[] = [];
      for (const { task, skill } of objectivesOf(ctx)) {
        const issue = await asMaintainer.createIssue(task.spec.title, task.spec.objective);
        goals.push({ task, skill, issue });
      }
      // An outsider plants an instruction for agents on the issue at once.
      if (cell.profile === "injected") world.person.outsiderInjection(goals[0]!.issue);
      const identity = installJobIdentity(sandbox, world.repo, "oracle-agent");
      const d = driver(world);
      const until = sandbox.clock.now() + cell.horizonHours * 60 * MINUTE;
      const budget = cell.budgetUsd ?? null;
      let spentUsd = 0;
      const budgetLeft = () => (budget === null ? Number.POSITIVE_INFINITY : budget - spentUsd);
      const budgetSpent = () => budgetLeft() <= 0;

      /**
       * One agent job of `goal` on `branch` for `title` (null: plan the objective); what the
       * agent said, unless it died.
       */
      const slice = async (
        goal: (typeof goals)[number],
        key: string,
        title: string | null,
        branch: string,
      ): Promise<AgentOutcome | null> => {
        const { task, skill, issue } = goal;
        const start = sandbox.clock.now();
        const rest = identity.client();
        const { tree, sha: base } = await world.checkout(branch);
        const pull = await openPullFrom(rest, branch);
        const checkout = memoryTree(tree);
        const { outcome, cutAtUsd } = await meteredSlice(
          agent,
          {
            prompt:
              title === null
                ? `## Your todo: plan #${issue}\n\n${task.spec.objective}\n\nPropose the todos that reach this objective, in order.\n`
                : `## Your todo: ${title}\n\nWork on this todo of #${issue} until it is done.\n`,
            tree: checkout,
            tools: readTools(await readIssue(rest, issue), pull),
            skill,
            profile: cell.profile,
          },
          // It knows its budget: the last of it is a hard ceiling, as LoopX's proxy holds it.
          { usd: budgetLeft(), hard: budget !== null },
        );
        // Stopped short of the budget: what is left cannot pay for a reply, so it is spent.
        spentUsd =
          cutAtUsd !== null && budget !== null ? budget : spentUsd + modelUsd(outcome.tokens);
        const jobMinutes = SETUP_MINUTES + SLICE_MINUTES;
        await d.advanceTo(start + jobMinutes * MINUTE);
        const files = treeDiff(tree, checkout.snapshot());
        // A plan is the agent's answer, not work for the default branch: nothing to push.
        const pushed = title === null ? [] : Object.keys(files).sort();
        if (title !== null && pushed.length > 0) {
          const sent = appPush(
            world,
            branch,
            files,
            identity.login,
            `${key}: ${outcome.summary}`,
            base,
          );
          if ("refused" in sent) {
            // Only a person can push workflow files: the oracle hands them the change at once
            // and opens the PR from their push, the least any loop can do.
            const patch = await formatPatch(tree, checkout.snapshot(), pushed, key);
            const act = world.person.pushPatch(branch, patch, issue);
            await d.advanceTo(act.dueAt);
            await act.performed;
          }
          await sandbox.idle();
          if (pull === null) {
            // A fresh token: waiting for a person may outlast the job's (an hour).
            const opened = await openPull(identity.client(), branch, title, `${title} (#${issue})`);
            if (opened !== null) out.pullsOpened.push(opened);
          }
        }
        out.slices.push(sliceRecord(start, outcome, pushed));
        out.jobs.push({ at: start, kind: "agent", minutes: billedMinutes(jobMinutes) });
        await d.settle();
        return outcome.died ? null : outcome;
      };

      const playGoal = async (goal: (typeof goals)[number]): Promise<void> => {
        const { task } = goal;
        const keyOf = (title: string) =>
          task.todoOrder().find((k) => task.todo(k).title === title) ?? null;
        // A pair's goals each keep their branches apart.
        const prefix = goals.length > 1 ? `oracle/${task.spec.id}-` : "oracle/";
        // A planning job that died said nothing: it knows, and plans again.
        let planned: AgentOutcome | null = null;
        for (let i = 0; i < MAX_SLICES_PER_TODO && planned === null; i++) {
          if (sandbox.clock.now() >= until || budgetSpent()) break;
          planned = await slice(goal, "plan", null, `${prefix}plan`);
        }
        const titles = [...(planned?.proposedTodos ?? [])];
        if (titles.length === 0) out.notes.push("the planning slice proposed no todos");
        for (let t = 0; t < titles.length; t++) {
          const title = titles[t]!;
          const key = keyOf(title) ?? `p${t + 1}`;
          const branch = `${prefix}${key}`;
          let done = false;
          for (let i = 0; i < MAX_SLICES_PER_TODO && !done; i++) {
            if (sandbox.clock.now() >= until || budgetSpent()) break;
            const said = await slice(goal, key, title, branch);
            done = said?.finishedTodo ?? false;
            const found = (said?.proposedTodos ?? []).filter((p) => !titles.includes(p));
            titles.splice(t + 1, 0, ...found);
          }
          if (!done && budgetSpent()) {
            out.notes.push(`the budget was spent before ${key} finished`);
            return;
          }
          if (!done) {
            out.notes.push(`${key} never finished in ${MAX_SLICES_PER_TODO} slices`);
            return;
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
              if (budgetSpent()) break;
              await slice(goal, key, title, branch);
              continue;
            }
            const next = Math.min(...world.person.pending().map((a) => a.dueAt), until);
            await d.advanceTo(Math.max(next, sandbox.clock.now() + MINUTE));
          }
          if (!merged) {
            out.notes.push(`${key}'s PR was not merged before the horizon`);
            return;
          }
        }
      };
      for (const goal of goals) {
        await playGoal(goal);
        if (out.notes.length > 0) break;
      }
      if (out.notes.length === 0) out.stoppedAt = sandbox.clock.now();
      return out;
    },
  };
}
