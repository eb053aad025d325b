/**
 * One cell of `bench:loop`: a task's repository on the sandbox (the one model of GitHub every
 * arm runs against), its CI, and the people around it. An arm gets a CellWorld and works
 * through GitHub; the bench reads back what landed and what the world saw.
 */
import type { Sandbox } from "../../../packages/sandbox/src/index.ts";
import type { LoadedTask, Tree } from "../tasks/load-tasks.ts";
import { installRepoCi } from "./ci-dispatch.ts";
import { firstParentLine, readTreeAt, resolveCommit } from "./git-tree.ts";
import { gradeTree } from "./grade.ts";
import { DEFAULT_PERSON, type PersonModel, type Role } from "./person-acts.ts";
import { PEOPLE, ScriptedPerson } from "./scripted-person.ts";
import { type CiRunRecord, taskCi } from "./task-ci.ts";

export interface CellWorldOptions {
  sandbox: Sandbox;
  task: LoadedTask;
  /**
   * The other task of a shared-file pair: a second goal on the same repository (the two
   * start from the same files). Its todos are graded too, keyed `<task id>/<todo key>`.
   */
  partner?: LoadedTask;
  /** `bench/<name>`: the repository this cell creates. */
  repo: string;
  seed: number;
  person?: PersonModel;
}

/** What the world saw happen, for the bench's tables. */
export interface WorldCounters {
  ciRuns: number;
  failedCiRuns: number;
  /** Of the failed runs, those the flaky start failed. */
  flakyCiRuns: number;
}

export interface CellWorld {
  readonly sandbox: Sandbox;
  readonly task: LoadedTask;
  /** The tasks whose goals share this repository: `task`, then the partner if any. */
  readonly tasks: readonly LoadedTask[];
  readonly repo: string;
  readonly seed: number;
  readonly person: ScriptedPerson;
  /** The logins of the people (maintainer: maintain, reviewer: write, outsider: none). */
  readonly people: typeof PEOPLE;
  /** A user token acting as that person (for an arm's or a test's own setup steps). */
  token(role: Role): string;
  mainTree(): Promise<Tree>;
  branchTree(branch: string): Promise<Tree>;
  /** What an agent job checks out for `branch`: its head, or main's when it does not exist yet. */
  checkout(branch: string): Promise<{ tree: Tree; sha: string }>;
  /** Todo keys whose hidden test passes on `main`, in landing order (task id first for a pair). */
  landed(): Promise<string[]>;
  /** The simulated time the world began: the start of every arm's clock in this cell. */
  startedAt: number;
  /**
   * When `main` first held every todo: the time of the first commit on its first-parent line
   * whose files pass every hidden test (null when none does). Ask once every todo has landed:
   * before that it grades every commit to find none.
   */
  doneAt(): Promise<number | null>;
  /** How many todos the tasks have in all. */
  totalTodos(): number;
  counters(): WorldCounters;
  /** Every CI run of this repository, in start order. */
  ciRuns(): readonly CiRunRecord[];
  /** Stops this repository's CI and drops the person's pending acts. The repository stays. */
  close(): void;
}

const REPO_NAME = /^bench\/[A-Za-z0-9][A-Za-z0-9._-]*$/;

export async function startCellWorld(opts: CellWorldOptions): Promise<CellWorld> {
  const { sandbox, task, repo, seed } = opts;
  const tasks = opts.partner ? [task, opts.partner] : [task];
  if (opts.partner && !sameFiles(task.repoFiles(), opts.partner.repoFiles())) {
    throw new Error(
      `${task.spec.id} and ${opts.partner.spec.id} start from different files: a pair shares one repository`,
    );
  }
  // The repository's one CI and one reviewer follow `task`'s script: a partner with a script
  // of its own (review rounds, a flaky start) would be reviewed and built by the wrong one.
  if (
    opts.partner &&
    (opts.partner.spec.review.changeRequests > 0 || opts.partner.spec.ci.failFirst > 0)
  ) {
    throw new Error(
      `${opts.partner.spec.id} asks for review rounds or a failing CI start; a pair's partner may not (the world scripts them for ${task.spec.id} only)`,
    );
  }
  if (!REPO_NAME.test(repo)) {
    throw new Error(
      `repo "${repo}": a cell's repository is named bench/<name>, e.g. bench/${task.spec.id}`,
    );
  }
  if (exists(sandbox, repo)) {
    throw new Error(
      `${repo} already exists on this sandbox: give each cell its own repository name`,
    );
  }
  sandbox.createRepo(repo, {
    files: Object.fromEntries(task.repoFiles()),
    collaborators: { [PEOPLE.maintainer]: "maintain", [PEOPLE.reviewer]: "write" },
    // Public, so the outsider can read the issue and comment on it without being a collaborator.
    private: false,
    description: task.spec.title,
  });
  const gitDir = sandbox.gitDir(repo);
  const runs: CiRunRecord[] = [];
  const stopCi = installRepoCi(
    sandbox,
    repo,
    taskCi({ task, gitDir, now: () => sandbox.clock.now(), onRun: (r) => runs.push(r) }),
  );
  const person = new ScriptedPerson({
    sandbox,
    repo,
    task,
    seed,
    model: opts.person ?? DEFAULT_PERSON,
  });
  const tokens = new Map<Role, string>();
  const treeOf = async (branch: string): Promise<Tree> => {
    const sha = await resolveCommit(gitDir, `refs/heads/${branch}`);
    if (!sha) throw new Error(`${repo} has no branch "${branch}"`);
    return readTreeAt(gitDir, sha);
  };
  const landedIn = async (tree: Tree): Promise<string[]> => {
    if (tasks.length === 1) return (await gradeTree(task, tree)).landed;
    const keys: string[] = [];
    for (const t of tasks) {
      for (const k of (await gradeTree(t, tree)).landed) keys.push(`${t.spec.id}/${k}`);
    }
    return keys;
  };
  const world: CellWorld = {
    sandbox,
    task,
    tasks,
    repo,
    seed,
    person,
    people: PEOPLE,
    token(role) {
      let token = tokens.get(role);
      if (!token) {
        token = sandbox.createUserToken(PEOPLE[role]);
        tokens.set(role, token);
      }
      return token;
    },
    mainTree: () => treeOf("main"),
    branchTree: treeOf,
    async checkout(branch) {
      const sha =
        (await resolveCommit(gitDir, `refs/heads/${branch}`)) ??
        (await resolveCommit(gitDir, "refs/heads/main"));
      if (!sha) throw new Error(`${repo} has no branch main`);
      return { tree: await readTreeAt(gitDir, sha), sha };
    },
    landed: async () => landedIn(await world.mainTree()),
    startedAt: sandbox.clock.now(),
    async doneAt() {
      const total = world.totalTodos();
      for (const commit of await firstParentLine(gitDir, "refs/heads/main")) {
        const tree = await readTreeAt(gitDir, commit.sha);
        if ((await landedIn(tree)).length === total) return commit.at;
      }
      return null;
    },
    totalTodos: () => tasks.reduce((n, t) => n + t.todoOrder().length, 0),
    counters: () => {
      const failed = runs.filter((r) => r.conclusion === "failure");
      return {
        ciRuns: runs.length,
        failedCiRuns: failed.length,
        flakyCiRuns: failed.filter((r) => r.flake).length,
      };
    },
    ciRuns: () => runs,
    close() {
      stopCi();
      person.cancelAll();
    },
  };
  return world;
}

function exists(sandbox: Sandbox, repo: string): boolean {
  try {
    sandbox.repoByFullName(repo);
    return true;
  } catch {
    return false;
  }
}

function sameFiles(a: Tree, b: Tree): boolean {
  return a.size === b.size && [...a].every(([path, text]) => b.get(path) === text);
}
