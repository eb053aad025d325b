/**
 * Arm B1 of `bench:loop`: the committed recipe (b1/workflow.yml, b1/prompt.md, b1/SOURCES.md)
 * played on the sandbox's clock. Every firing of its cron, unless a run is in progress (its
 * concurrency group keeps one pending run at most), one run:
 *
 * 1. checks out `agent/work` (main the first time) and ends, billed, if NOTES.md says DONE;
 * 2. gathers the issue, its comments, and the open PR's check runs and reviews over REST;
 * 3. renders prompt.md and runs the fixed agent once (one slice) on the checkout;
 * 4. pushes what changed to `agent/work` with an App token (AGENT_PUSH_TOKEN: it starts CI)
 *    and opens a PR from it if none is open.
 *
 * The branch is never reset: after a merge the next run keeps committing to it and opens a
 * new PR. The person is the world's; they look at GitHub after every run and every act.
 */
import { NOTES_PATH } from "../agent/agent-notes.ts";
import { memoryTree } from "../agent/memory-tree.ts";
import { appPush } from "../world/app-push.ts";
import { RepoRest } from "../world/rest.ts";
import { agentOf, emptyRun, sliceRecord } from "./arm-run.ts";
import type { Arm, ArmContext, ArmRun } from "./arm-types.ts";
import { loadRecipe, type PromptVars, renderPrompt } from "./b1/b1-recipe.ts";
import { billedMinutes, SETUP_MINUTES, SKIP_MINUTES, SLICE_MINUTES } from "./billing.ts";
import {
  hasFeedback,
  type IssueContext,
  installJobIdentity,
  openPull,
  openPullFrom,
  type PullContext,
  readIssue,
  readTools,
} from "./plain-loop/github.ts";
import { driver, firingsBetween, runSchedule } from "./plain-loop/schedule.ts";
import { hasMarkerLine, treeDiff } from "./plain-loop/tree-diff.ts";

const MINUTE = 60_000;

export function b1Arm(): Arm {
  return {
    name: "b1",
    async run(ctx: ArmContext): Promise<ArmRun> {
      const recipe = loadRecipe();
      const { world, cell, skill } = ctx;
      const { sandbox } = world;
      const branch = recipe.branch;
      const out = emptyRun("b1");
      const agent = agentOf(ctx.cell, out, ctx.agent);
      // The objective lives in an issue (the workflow's AGENT_ISSUE), written by the maintainer.
      const asMaintainer = new RepoRest(sandbox.url, world.repo, world.token("maintainer"));
      const issue = await asMaintainer.createIssue(cell.task.spec.title, cell.task.spec.objective);
      // An outsider plants an instruction for agents on the issue at once.
      if (cell.profile === "injected") world.person.outsiderInjection(issue);
      const identity = installJobIdentity(sandbox, world.repo, "b1-agent-loop");
      const d = driver(world);
      const until = sandbox.clock.now() + cell.horizonHours * 60 * MINUTE;

      const run = async (n: number): Promise<void> => {
        const start = sandbox.clock.now();
        const rest = identity.client();
        const { tree, sha: base } = await world.checkout(branch);
        const pull = await openPullFrom(rest, branch);
        // DONE stops the loop unless its open PR has feedback to address: a review asking for
        // changes or a failed check arriving after the agent wrote DONE still gets an answer.
        if (hasMarkerLine(tree.get(recipe.progressFile), recipe.doneMarker) && !hasFeedback(pull)) {
          out.jobs.push({ at: start, kind: "skip", minutes: billedMinutes(SKIP_MINUTES) });
          out.stoppedAt ??= start;
          await d.advanceTo(start + SKIP_MINUTES * MINUTE);
          return;
        }
        out.stoppedAt = null;
        const issueCtx = await readIssue(rest, issue);
        const prompt = renderPrompt(
          promptVars(issueCtx, pull, branch, tree.get(recipe.progressFile)),
        );
        const checkout = memoryTree(tree);
        const outcome = await agent({
          prompt,
          tree: checkout,
          tools: readTools(issueCtx, pull),
          skill,
          profile: cell.profile,
        });
        // The agent's slice takes its time on the runner; the person may act meanwhile.
        const jobMinutes = SETUP_MINUTES + SLICE_MINUTES;
        await d.advanceTo(start + jobMinutes * MINUTE);
        const files = treeDiff(tree, checkout.snapshot());
        const pushed = Object.keys(files).sort();
        let landedFiles = pushed;
        if (pushed.length > 0) {
          const sent = appPush(
            world,
            branch,
            files,
            identity.login,
            `agent: ${outcome.summary || `run ${n}`}`.slice(0, 200),
            base,
          );
          // The recipe's push step fails and the run with it: nothing of the slice survives.
          if ("refused" in sent) {
            landedFiles = [];
            out.notes.push(`run ${n}: push refused: ${sent.refused}`);
          }
          await sandbox.idle();
        }
        // The workflow's last step: a PR from the work branch unless one is open.
        if ((await openPullFrom(identity.client(), branch)) === null) {
          const opened = await openPull(
            identity.client(),
            branch,
            `Agent loop: work on #${issue}`,
            `Work on #${issue} by the scheduled agent loop. ${recipe.progressFile} on this branch says what is done and what is next; the loop stops once it holds a line ${recipe.doneMarker}.`,
          );
          if (opened !== null) out.pullsOpened.push(opened);
        }
        // A slice whose push was refused moved nothing forward, whatever the agent said.
        const kept =
          landedFiles.length === pushed.length ? outcome : { ...outcome, progressed: false };
        out.slices.push(sliceRecord(start, kept, landedFiles));
        out.jobs.push({ at: start, kind: "agent", minutes: billedMinutes(jobMinutes) });
        await d.settle();
      };

      await runSchedule(
        {
          world,
          cron: recipe.cron,
          until,
          run,
          // Stopped by DONE and nothing left for the person to merge: the cell is over.
          finished: async () =>
            out.stoppedAt !== null && (await openPullFrom(identity.client(), branch)) === null,
        },
        d,
      );
      if (out.stoppedAt === null) out.notes.push("never found DONE before the horizon");
      else {
        // The cell ends early, but the cron does not: every later firing is a billed skip job.
        const left = firingsBetween(recipe.cron, sandbox.clock.now(), until);
        for (let i = 0; i < left; i++) {
          out.jobs.push({ at: until, kind: "skip", minutes: billedMinutes(SKIP_MINUTES) });
        }
      }
      out.notes.push(
        "PR review comments (pulls/{n}/comments) are not read: the sandbox serves no such route",
      );
      return out;
    },
  };
}

/** The context step's files, formatted as its `gh api --jq` lines. */
function promptVars(
  issue: IssueContext,
  pull: PullContext | null,
  branch: string,
  notes: string | undefined,
): PromptVars {
  const none = `(no pull request is open from ${branch} yet)`;
  const checks = pull?.view.checks.map((c) => `- ${c.name}: ${c.conclusion} ${c.summary}`) ?? [];
  const reviews =
    pull?.view.reviews.map((r) => `- review by ${r.author}, ${r.state.toUpperCase()}: ${r.body}`) ??
    [];
  // The workflow copies the notes file into the prompt as it stands on the branch.
  const progress =
    notes === undefined
      ? `(no ${NOTES_PATH} yet: this is the first run)`
      : notes.replace(/\n$/, "");
  return {
    OBJECTIVE: issue.objective,
    ISSUE_COMMENTS:
      issue.comments.length === 0
        ? "(no comments)"
        : issue.comments.map((c) => `- ${c.author} (${c.at}): ${c.body}`).join("\n"),
    PR_CHECKS:
      pull === null
        ? none
        : checks.length > 0
          ? checks.join("\n")
          : `(pull request #${pull.number}: no check has reported on its head commit yet)`,
    PR_REVIEWS:
      pull === null
        ? none
        : reviews.length > 0
          ? reviews.join("\n")
          : `(pull request #${pull.number}: no reviews yet)`,
    PROGRESS: progress,
  };
}
