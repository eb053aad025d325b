/**
 * `npm run demo -- --plan`: the goal starts from an objective alone. The agent's first slice
 * plans three todos and asks for a gate on the scope the release needs; the two others are
 * worked and reach their pull requests while that gate waits, and the release is never claimed
 * until the owner approves it. Each PR is green on its exact head before its merge gate opens;
 * the owner approves and merges them, each merge completes its todo, and the goal is done.
 */
import type { GoalState, Todo } from "@loopx/core";
import type { DemoOptions } from "./demo-options.ts";
import { OBJECTIVE, PLANNED, RELEASE_SCOPE } from "./demo-project.ts";
import { approve, awaitCompletion, fileGoal, mergeGate, releaseRunner } from "./scenario-steps.ts";
import type { ScenarioFacts, ScenarioIo } from "./scenario-types.ts";
import type { Stack } from "./start-stack.ts";

export const PLAN_STEPS = 7;

export async function runPlanScenario(
  stack: Stack,
  opts: DemoOptions,
  io: ScenarioIo,
): Promise<ScenarioFacts> {
  const { sandbox } = stack;
  const { progress, waiter, people } = io;
  progress.step(`The owner files "${OBJECTIVE.title}" (an objective, no todo) and labels it loopx`);
  const { facts, reached, repo, prHead } = await fileGoal(stack, io, OBJECTIVE);
  await releaseRunner(stack, people, facts.issue);
  await reached("goal-started");

  /** The PR LoopX opened for a todo's branch and tracks, once it exists. */
  const pullOf = (s: GoalState | null, todo: Todo) => {
    const branch = `loopx/${facts.issue}-${todo.key}`;
    const opened = [...sandbox.store.pulls.values()].find(
      (p) => p.repoId === repo.id && p.headRef === branch,
    );
    return opened && s?.pullRequests.some((p) => p.number === opened.number) ? opened : null;
  };
  /** The PR's merge gate, open on its current head: its required checks are green there. */
  const readyGate = (s: GoalState | null, pr: number) => {
    const g = mergeGate(s, pr);
    return g?.status === "open" && g.pr?.headSha === prHead(pr) ? g : null;
  };
  const byTitle = (s: GoalState | null, title: string) => s?.todos.find((t) => t.title === title);

  progress.step("Tick 1 plans the objective; the plan asks for a gate on the release");
  const plan = await waiter.until(
    "the plan is accepted and its gate opens",
    "LoopX (tick 1 plans)",
    (s) => {
      const todos = Object.values(PLANNED).map((title) => byTitle(s, title));
      const gate = s?.gates.find((g) => g.status === "open" && g.scopes.includes(RELEASE_SCOPE));
      const planned = s?.todos.find((t) => t.kind === "plan")?.status === "done";
      const [fix, docs, release] = todos;
      return planned && fix && docs && release && gate ? { fix, docs, release, gate } : null;
    },
  );
  for (const t of [plan.fix, plan.docs, plan.release]) {
    const needs = t.requiredScopes.length > 0 ? ` (needs ${t.requiredScopes.join(", ")})` : "";
    progress.note(`${t.key} ${t.title}${needs}`);
  }
  progress.note(`${plan.gate.key} asks: ${plan.gate.question}`);
  await reached("planned");

  progress.step(
    `${plan.fix.key} and ${plan.docs.key} reach their PRs while ${plan.gate.key} waits`,
  );
  const releaseClaimed = (s: GoalState | null) => {
    const claimed = s?.ticks.some((t) => t.todo === plan.release.key);
    if (claimed) {
      throw new Error(
        `${plan.release.key} was claimed before ${plan.gate.key} was approved: the gate did not hold`,
      );
    }
  };
  const others = await waiter.until(
    `${plan.fix.key} and ${plan.docs.key} wait at their merge gates`,
    `the ticks on ${plan.fix.key} and ${plan.docs.key}, then CI`,
    (s) => {
      releaseClaimed(s);
      const pulls = [plan.fix, plan.docs].map((t) => pullOf(s, t));
      const gates = pulls.map((p) => (p ? readyGate(s, p.number) : null));
      return pulls.every((p) => p) && gates.every((g) => g) ? pulls.flatMap((p) => p ?? []) : null;
    },
    2 * opts.stepTimeoutMs,
  );
  const state = await waiter.state();
  releaseClaimed(state);
  progress.note(
    `PRs ${others.map((p) => `#${p.number}`).join(", ")} are green and at their merge gates; ${plan.release.key} was never claimed`,
  );
  await reached("others-proceed");

  progress.step(`The owner (@alice) approves ${plan.gate.key}; ${plan.release.key} may run`);
  const asking = new AbortController();
  await approveScope(stack, opts, io, facts.issue, plan.gate.key, asking.signal);
  await waiter.until(
    `the owner approves ${plan.gate.key}`,
    opts.yes ? "LoopX (the approval)" : `you: approve ${plan.gate.key} in the dashboard`,
    (s) => s?.gates.find((g) => g.key === plan.gate.key)?.status === "approved",
    opts.yes ? undefined : 60 * 60_000,
  );
  asking.abort();
  progress.note(`${plan.gate.key} approved`);
  await reached("scope-approved");

  progress.step(`A tick works on ${plan.release.key}; its PR goes green and waits at its gate`);
  const released = await waiter.until(
    `${plan.release.key}'s PR waits at its merge gate`,
    `the tick on ${plan.release.key}, then CI`,
    (s) => {
      const pull = pullOf(s, plan.release);
      return pull && readyGate(s, pull.number) ? pull : null;
    },
  );
  progress.note(`PR #${released.number} is green and at its merge gate`);
  await reached("all-ready");

  progress.step("The owner approves and merges each PR; each merge completes its todo");
  for (const [todo, pull] of [
    [plan.fix, others[0]],
    [plan.docs, others[1]],
    [plan.release, released],
  ] as const) {
    if (!pull) continue;
    facts.pr = pull.number;
    const gate = await waiter.until(`PR #${pull.number}'s merge gate`, "LoopX", (s) =>
      readyGate(s, pull.number),
    );
    const answered = new AbortController();
    await approve(stack, opts, io, pull.number, gate.key, answered.signal);
    await waiter.until(
      `the owner approves ${gate.key}`,
      opts.yes ? "LoopX (the approval)" : `you: approve ${gate.key} in the dashboard`,
      (s) => s?.gates.find((g) => g.key === gate.key)?.status === "approved",
      opts.yes ? undefined : 60 * 60_000,
    );
    answered.abort();
    if (
      !opts.yes &&
      io.confirm &&
      !(await io.confirm(`Merge PR #${pull.number} as @alice now? [Y/n] `))
    ) {
      throw new Error(
        "you chose not to merge; the goal stays open (run the demo again to continue)",
      );
    }
    facts.mergeSha = await people.merge(pull.number, prHead(pull.number));
    facts.merged.push({ pr: pull.number, sha: facts.mergeSha });
    await waiter.until(`${todo.key} completes on its merge`, "LoopX (the merge)", (s) =>
      s?.todos.some((t) => t.key === todo.key && t.status === "done"),
    );
    progress.note(`PR #${pull.number} merged as ${facts.mergeSha.slice(0, 7)}; ${todo.key} done`);
  }

  progress.step("The goal completes");
  await awaitCompletion(stack, waiter, facts);
  progress.note(`final report posted; #${facts.issue} closed by LoopX`);
  await reached("done");
  return facts;
}

/** The owner approves a scope gate with a comment: at once under --yes, else when asked. */
async function approveScope(
  stack: Stack,
  opts: DemoOptions,
  io: ScenarioIo,
  issue: number,
  gate: string,
  signal: AbortSignal,
): Promise<void> {
  const command = `/loopx approve ${gate}`;
  if (opts.yes) {
    io.progress.note(`--yes: @alice comments ${command}`);
    await io.people.comment(issue, command);
    return;
  }
  io.progress.note(
    `Approve ${gate} in the dashboard (${stack.appUrl}/loopx) or comment ${command}`,
  );
  if (io.confirm) {
    void io.confirm(`…or approve ${gate} here as @alice? [Y/n] `, signal).then(async (yes) => {
      if (yes) await io.people.comment(issue, command).catch(() => {});
    });
  }
}
