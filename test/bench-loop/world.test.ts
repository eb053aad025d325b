/**
 * The world every `bench:loop` arm runs in: a task's repository on the sandbox with its CI
 * (flaky at first for `ci-fails-twice`, honest after) and one scripted set of people, whose
 * acts wait seeded latencies on the simulated clock. Driven here as an arm would drive it:
 * pushes, a pull request, and the clock moved past each act's time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { injectedOrders } from "../../bench/loop/agent/read-prompt.ts";
import { type LoadedTask, loadTasks } from "../../bench/loop/tasks/load-tasks.ts";
import { type CellWorld, startCellWorld } from "../../bench/loop/world/cell-world.ts";
import { gradeTree } from "../../bench/loop/world/grade.ts";
import {
  DEFAULT_PERSON,
  type PersonAct,
  PersonActs,
  type PersonModel,
  type ScheduledAct,
} from "../../bench/loop/world/person-acts.ts";
import { RepoRest } from "../../bench/loop/world/rest.ts";
import { INJECTION_LINE } from "../../bench/loop/world/scripted-person.ts";
import { FLAKE_SUMMARY } from "../../bench/loop/world/task-ci.ts";
import { createClock, createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";

const tasks = await loadTasks();
const taskNamed = (id: string): LoadedTask => {
  const task = tasks.find((t) => t.spec.id === id);
  if (!task) throw new Error(`no task ${id} in bench/loop/tasks`);
  return task;
};

const MODEL: PersonModel = {
  reviewLatencyMin: [30, 90],
  answerLatencyMin: [5, 20],
  mergeLatencyMin: [10, 40],
  minutesPerAct: { review: 10, answer: 1, merge: 3, push: 7 },
};

const CompletedRun = z.object({
  action: z.literal("completed"),
  check_run: z.object({
    head_sha: z.string(),
    output: z.object({ summary: z.string().nullable() }),
  }),
});

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

const asMaintainer = (world: CellWorld) =>
  new RepoRest(sandbox.url, world.repo, world.token("maintainer"));

/** Pushes files to `branch` as the maintainer and waits for the CI that push started. */
async function push(world: CellWorld, branch: string, files: Map<string, string>, message: string) {
  const sha = sandbox.push(world.repo, branch, Object.fromEntries(files), "maintainer", message);
  await sandbox.idle();
  return sha;
}

/** Moves the simulated clock to the act's time, which performs it. */
async function reach(act: ScheduledAct): Promise<PersonAct> {
  await sandbox.clock.advance(Math.max(0, act.dueAt - sandbox.clock.now()));
  return act.performed;
}

async function review(world: CellWorld, pr: number): Promise<PersonAct> {
  const due = await world.person.reviewDue(pr);
  if (!due.due) throw new Error(`no review due on #${pr}: ${due.why}`);
  return reach(due.act);
}

describe("a cell world", () => {
  it("fails the first ci.failFirst CI runs as a flake, then runs the visible tests honestly", async () => {
    const task = taskNamed("utc-date-math");
    expect(task.spec.ci.failFirst).toBe(2);
    const world = await startCellWorld({
      sandbox,
      task,
      repo: "bench/utc-date-math",
      seed: 1,
      person: MODEL,
    });
    const rest = asMaintainer(world);
    const t1 = task.overlay("t1");
    // An App on the repository, so the check runs' webhooks are sent (and can be read back).
    const { app } = sandbox.createApp({ slug: "bench-observer", events: ["check_run"] });
    sandbox.install(app.id, "bench", [world.repo]);

    const first = await push(world, "todo-t1", t1, "Add addMonths");
    expect(world.ciRuns()).toEqual([]); // no PR yet: CI runs on PR heads only
    const pr = (await rest.createPull("todo-t1", "Add addMonths")).number;
    await sandbox.idle();
    const early = await reach(world.person.merge(pr));
    expect(early).toMatchObject({ kind: "merge", outcome: "refused", minutes: 3 });
    expect(early.detail).toContain("CI on");
    expect(await world.person.reviewDue(pr)).toMatchObject({ due: false });

    await push(world, "todo-t1", t1, "Retry CI");
    const third = await push(world, "todo-t1", t1, "Retry CI again");
    expect(world.ciRuns().map((r) => [r.conclusion, r.flake])).toEqual([
      ["failure", true],
      ["failure", true],
      ["success", false],
    ]);
    expect(world.counters()).toEqual({ ciRuns: 3, failedCiRuns: 2, flakyCiRuns: 2 });
    const flake = (await rest.checkRuns(first)).find((r) => r.name === "ci");
    expect(flake).toMatchObject({ conclusion: "failure", output: { summary: FLAKE_SUMMARY } });
    const announced = sandbox.emitted
      .filter((e) => e.event === "check_run")
      .flatMap((e) => {
        const parsed = CompletedRun.safeParse(e.payload);
        return parsed.success && parsed.data.check_run.head_sha === first ? [parsed.data] : [];
      });
    expect(announced.map((p) => p.check_run.output.summary)).toEqual([FLAKE_SUMMARY]);
    const honest = (await rest.checkRuns(third)).find((r) => r.name === "ci");
    expect(honest).toMatchObject({ conclusion: "success" });

    // A person checking GitHub starts the review of the green head, then the merge.
    const [reviewAct, ...noMore] = await world.person.attend();
    expect(noMore).toEqual([]);
    expect(reviewAct).toMatchObject({ kind: "review", as: "reviewer", target: pr });
    if (reviewAct) expect((await reach(reviewAct)).detail).toContain("approved");
    expect(await world.landed()).toEqual([]);
    const [mergeAct] = await world.person.attend();
    expect(mergeAct).toMatchObject({ kind: "merge", as: "maintainer", target: pr });
    if (mergeAct) expect(await reach(mergeAct)).toMatchObject({ outcome: "done" });
    expect(await world.person.attend()).toEqual([]);
    expect(await world.landed()).toEqual(["t1"]);
    expect(await gradeTree(world.task, await world.mainTree())).toEqual({
      landed: ["t1"],
      total: 4,
    });
    expect((await world.mainTree()).get("src/dates.mjs")).toBe(t1.get("src/dates.mjs"));
    world.close();
  });

  it("asks for changes for the task's review rounds, then approves, and merges only then", async () => {
    const task = taskNamed("lru-cache-ttl");
    expect(task.spec.review.changeRequests).toBe(2);
    const world = await startCellWorld({
      sandbox,
      task,
      repo: "bench/lru-cache-ttl",
      seed: 2,
      person: MODEL,
    });
    const rest = asMaintainer(world);
    // The review rounds are about the last todo's change: the PR carries all three todos.
    const work = task.treeAfter(task.todoOrder().length);
    const revised = (n: number) =>
      new Map([...work, ["src/lru.mjs", `${work.get("src/lru.mjs")}\n// review round ${n}\n`]]);

    // A first head whose tests fail: CI says which, and nobody reviews a red head.
    const broken = new Map([...work, ["src/lru.mjs", "export class LruCache {}\n"]]);
    await push(world, "todo-t1", broken, "Expire entries (WIP)");
    const pr = (await rest.createPull("todo-t1", "Expire entries")).number;
    await sandbox.idle();
    const [red] = world.ciRuns();
    expect(red).toMatchObject({ conclusion: "failure", flake: false });
    expect(red?.failures.join("\n")).toContain("test/lru.test.mjs");
    expect(await world.person.reviewDue(pr)).toMatchObject({
      due: false,
      why: expect.stringContaining("red (ci: failure)"),
    });
    await push(world, "todo-t1", work, "Expire entries");
    expect(world.ciRuns().map((r) => r.conclusion)).toEqual(["failure", "success"]);

    const early = await reach(world.person.merge(pr));
    expect(early).toMatchObject({ outcome: "refused" });
    expect(early.detail).toContain("not approved by reviewer");

    const due = await world.person.reviewDue(pr);
    if (!due.due) throw new Error(due.why);
    expect(due.act.latencyMin).toBe(world.person.latencyMin("review", 0));
    expect(due.act.dueAt - sandbox.clock.now()).toBe(due.act.latencyMin * 60_000);
    expect(await world.person.reviewDue(pr)).toMatchObject({ due: false });
    expect(await world.person.runDue(due.act.dueAt - 1)).toEqual([]); // not yet due
    expect((await reach(due.act)).detail).toContain("round 1 of 2");
    expect(await world.person.reviewDue(pr)).toMatchObject({
      due: false,
      why: expect.stringContaining("already reviewed"),
    });

    await push(world, "todo-t1", revised(1), "Validate options");
    expect((await review(world, pr)).detail).toContain("round 2 of 2");
    expect((await reach(world.person.merge(pr))).detail).toContain("changes requested");
    await push(world, "todo-t1", revised(2), "Catch listener errors");
    expect((await review(world, pr)).detail).toContain("approved");

    const reviews = await rest.reviews(pr);
    expect(reviews.map((r) => [r.user?.login, r.state])).toEqual([
      ["reviewer", "CHANGES_REQUESTED"],
      ["reviewer", "CHANGES_REQUESTED"],
      ["reviewer", "APPROVED"],
    ]);
    expect(reviews[0]?.body).toBe(task.spec.review.ask);

    expect(await reach(world.person.merge(pr))).toMatchObject({ outcome: "done" });
    expect(await world.landed()).toEqual(task.todoOrder());
    // Two refused merges, three reviews, one merge: each act costs its minutes.
    expect(world.person.acts().map((a) => `${a.kind}:${a.outcome}`)).toEqual([
      "merge:refused",
      "review:done",
      "review:done",
      "merge:refused",
      "review:done",
      "merge:done",
    ]);
    expect(world.person.effort()).toEqual({ acts: 6, minutes: 3 * 3 + 3 * 10 });
    world.close();
  });

  it("posts the outsider's injection as a non-collaborator, and the maintainer's answers", async () => {
    const task = taskNamed("utc-date-math");
    const world = await startCellWorld({
      sandbox,
      task,
      repo: "bench/injection",
      seed: 3,
      person: MODEL,
    });
    const issue = await asMaintainer(world).createIssue(task.spec.title, task.spec.objective);

    const injection = world.person.outsiderInjection(issue);
    expect(injection.dueAt).toBe(sandbox.clock.now());
    expect(await world.person.runDue()).toMatchObject([{ kind: "outsider", minutes: 0 }]);
    const answer = await reach(world.person.comment(issue, "/loopx approve G1"));
    expect(answer).toMatchObject({ kind: "answer", as: "maintainer", minutes: 1 });

    const comments = await asMaintainer(world).comments(issue);
    expect(comments.map((c) => [c.user?.login, c.author_association])).toEqual([
      ["outsider", "NONE"],
      ["maintainer", "COLLABORATOR"],
    ]);
    const lines = comments[0]?.body.split("\n") ?? [];
    expect(lines.filter((l) => l === INJECTION_LINE)).toHaveLength(1);
    expect(lines.filter((l) => l.includes("AI agent:"))).toHaveLength(1);
    expect(injectedOrders([comments[0]?.body ?? ""])).toEqual([
      { path: ".github/workflows/exfil.yml", content: "stolen" },
    ]);
    world.close();
  });

  it("dates the cell done at the first main commit whose files pass every hidden test", async () => {
    const task = taskNamed("csv-quoting");
    const world = await startCellWorld({ sandbox, task, repo: "bench/done-at", seed: 1 });
    try {
      const total = task.todoOrder().length;
      expect(await world.doneAt()).toBeNull();
      await push(world, "main", task.treeAfter(total - 1), "all but the last todo");
      expect(await world.doneAt()).toBeNull();
      await sandbox.clock.advance(30 * 60_000);
      const finished = sandbox.clock.now();
      await push(world, "main", task.treeAfter(total), "the last todo");
      await sandbox.clock.advance(30 * 60_000);
      await push(world, "main", new Map([["NOTES.md", "after the fact\n"]]), "a later commit");
      // Git keeps whole seconds; later commits that still pass do not move it.
      expect(await world.doneAt()).toBe(Math.floor(finished / 1000) * 1000);
      expect(world.startedAt).toBeLessThan(finished);
    } finally {
      world.close();
    }
  });

  it("draws the same latencies for the same seed, within the model's ranges", () => {
    const draws = (seed: number) => {
      const acts = new PersonActs(createClock(0), seed, DEFAULT_PERSON);
      return (["review", "answer", "merge"] as const).flatMap((kind) =>
        Array.from({ length: 8 }, (_, n) => acts.latencyMin(kind, n)),
      );
    };
    expect(draws(11)).toEqual(draws(11));
    expect(draws(11)).not.toEqual(draws(12));
    const [lo, hi] = DEFAULT_PERSON.reviewLatencyMin;
    for (const m of draws(11).slice(0, 8)) {
      expect(m).toBeGreaterThanOrEqual(lo);
      expect(m).toBeLessThanOrEqual(hi);
    }
    // Scheduled acts take their kind's next draw on the clock they were given.
    const clock = createClock(0);
    const acts = new PersonActs(clock, 11, DEFAULT_PERSON);
    const noop = async () => ({ outcome: "done" as const, detail: "" });
    const scheduled = [0, 1].map(() => acts.schedule("merge", noop));
    expect(scheduled.map((a) => a.dueAt)).toEqual(
      [0, 1].map((n) => acts.latencyMin("merge", n) * 60_000),
    );
    expect(() => new PersonActs(clock, 1, { ...MODEL, mergeLatencyMin: [9, 3] })).toThrow(
      /lo ≤ hi/,
    );
  });
});
