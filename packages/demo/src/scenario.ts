/**
 * The issue-fix loop, step by step, as people and GitHub drive it: the demo only acts where
 * a person would (file, label, give a todo, review, approve, merge) and otherwise waits for
 * LoopX, the tick workflow's jobs and CI to do their part. Each step's condition comes from
 * LoopX's rules for the issue-fix loop, read from the goal's state and the sandbox.
 */
import { isLoopxCheck } from "@loopx/core";
import type { DemoOptions } from "./demo-options.ts";
import { FIRST_TODO, ISSUE } from "./demo-project.ts";
import { approve, awaitCompletion, fileGoal, mergeGate, releaseRunner } from "./scenario-steps.ts";
import type { ScenarioFacts, ScenarioIo } from "./scenario-types.ts";
import type { Stack } from "./start-stack.ts";

export async function runScenario(
  stack: Stack,
  opts: DemoOptions,
  io: ScenarioIo,
): Promise<ScenarioFacts> {
  const { sandbox } = stack;
  const { progress, waiter, people } = io;
  progress.step(`The owner files "${ISSUE.title}" and labels it loopx`);
  const { facts, reached, repo, prHead } = await fileGoal(stack, io, ISSUE);
  await reached("goal-started");

  progress.step("The owner gives the goal its first todo (/loopx todo add)");
  await people.comment(facts.issue, `/loopx todo add ${FIRST_TODO}`);
  const first = await waiter.until(
    "the first todo is added",
    "LoopX (the App reads the command)",
    (s) => s?.todos.find((t) => t.title === FIRST_TODO),
  );
  progress.note(`${first.key} added; the tick workflow may run now`);
  await releaseRunner(stack, people, facts.issue);
  await reached("todo-added");

  progress.step(`Tick 1 works on ${first.key}; the App opens the pull request`);
  const branch = `loopx/${facts.issue}-${first.key}`;
  // Opened on GitHub and tracked by the goal (the App records the PR it opened).
  const pull = await waiter.until("the pull request opens", "LoopX (tick 1, then the App)", (s) => {
    const opened = [...sandbox.store.pulls.values()].find(
      (p) => p.repoId === repo.id && p.headRef === branch,
    );
    return opened && s?.pullRequests.some((p) => p.number === opened.number) ? opened : null;
  });
  facts.pr = pull.number;
  progress.note(`PR #${pull.number} opened from ${branch}`);
  await reached("pr-opened");

  progress.step(`CI runs on PR #${pull.number} and fails; LoopX makes a repair todo`);
  const repair = await waiter.until("a repair todo appears", "CI, then LoopX's PR monitor", (s) =>
    s?.todos.find((t) => t.kind === "repair"),
  );
  progress.note(`${repair.key} (repair): ${repair.title}`);
  await reached("ci-failed");

  progress.step(`The next tick repairs ${repair.key}; CI goes green; the merge gate opens`);
  const ready = await waiter.until(
    "the merge gate opens on the repaired head",
    "the repair tick, then CI",
    (s) => {
      const done = s?.todos.find((t) => t.key === repair.key)?.status === "done";
      const g = mergeGate(s);
      return done && g?.status === "open" && g.pr?.headSha === prHead(pull.number) ? g : null;
    },
  );
  progress.note(`${ready.key} (merge) open on ${ready.pr?.headSha.slice(0, 7)}`);
  await reached("repaired");

  progress.step(`A reviewer (@bob) requests changes on PR #${pull.number}`);
  const reviewedHead = prHead(pull.number);
  await people.requestChanges(pull.number, reviewedHead);
  const review = await waiter.until("a review todo appears", "LoopX's PR monitor", (s) =>
    s?.todos.find((t) => t.kind === "review"),
  );
  progress.note(`${review.key} (review): ${review.title}`);
  await reached("changes-requested");

  progress.step("A tick addresses the review; CI goes green; @bob looks again");
  const fixed = await waiter.until(
    "the review tick pushes and CI is green",
    "the review tick, then CI",
    (s) => {
      const head = prHead(pull.number);
      const done = s?.todos.find((t) => t.key === review.key)?.status === "done";
      return done && head !== reviewedHead && green(stack, head) ? head : null;
    },
  );
  // A request for changes stands until its threads are resolved on a newer head (or the
  // reviewer approves): the reviewer resolves the thread the tick addressed.
  const resolved = await people.resolveThreads(pull.number);
  progress.note(`@bob resolved ${resolved} review thread(s) on ${fixed.slice(0, 7)}`);
  const gate = await waiter.until(
    "the merge gate asks about the new head",
    "LoopX's PR monitor",
    (s) => {
      const g = mergeGate(s);
      return g?.status === "open" && g.pr?.headSha === prHead(pull.number) ? g : null;
    },
  );
  progress.note(`${gate.key} (merge) waits for the owner's approval of ${fixed.slice(0, 7)}`);
  await reached("review-addressed");

  progress.step(`The merge gate waits for the owner (@alice)`);
  const asking = new AbortController();
  await approve(stack, opts, io, pull.number, gate.key, asking.signal);
  await waiter.until(
    `the owner approves ${gate.key}`,
    opts.yes
      ? "LoopX (the approval)"
      : `you: approve ${gate.key} in the dashboard (${stack.appUrl}/loopx)`,
    (s) => s?.gates.find((g) => g.key === gate.key)?.status === "approved",
    opts.yes ? undefined : 60 * 60_000,
  );
  asking.abort();
  progress.note(`${gate.key} approved; merging is still a person's act`);
  await reached("approved");

  progress.step(`The owner merges PR #${pull.number}; the goal completes`);
  if (
    !opts.yes &&
    io.confirm &&
    !(await io.confirm(`Merge PR #${pull.number} as @alice now? [Y/n] `))
  ) {
    throw new Error("you chose not to merge; the goal stays open (run the demo again to continue)");
  }
  facts.mergeSha = await people.merge(pull.number, prHead(pull.number));
  facts.merged.push({ pr: pull.number, sha: facts.mergeSha });
  await awaitCompletion(stack, waiter, facts);
  progress.note(
    `merged as ${facts.mergeSha.slice(0, 7)}; final report posted; #${facts.issue} closed by LoopX`,
  );
  await reached("done");
  return facts;
}

/** Every CI check on the commit completed successfully (LoopX's own checks are not CI). */
function green(stack: Stack, sha: string): boolean {
  const checks = [...stack.sandbox.store.checkRuns.values()].filter(
    (c) => c.headSha === sha && !isLoopxCheck(c.name),
  );
  return checks.length > 0 && checks.every((c) => c.conclusion === "success");
}
