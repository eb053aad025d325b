/**
 * A task repository's CI, as its GitHub Actions job would run it: `npm test` (the visible tests)
 * on the pull request's head. Its first `ci.failFirst` runs fail whatever the code, the way a
 * flaky runner fails — the `ci-fails-twice` trait — and then it is honest.
 */
import { z } from "zod";
import type { CiContext } from "../../../packages/sandbox/src/index.ts";
import type { LoadedTask } from "../tasks/load-tasks.ts";
import { runChecks, VISIBLE_TEST_SCRIPT } from "../tasks/run-hidden.ts";
import type { CiVerdict, RepoCi } from "./ci-dispatch.ts";
import { readTreeAt } from "./git-tree.ts";

/** One CI run the world saw, in the order they started. */
export interface CiRunRecord {
  /** Simulated ms when it started. */
  at: number;
  branch: string;
  sha: string;
  conclusion: CiVerdict["conclusion"];
  /** Failed by the flaky start, not by the code. */
  flake: boolean;
  /** `file › test: message` per failing visible test (or why none could run). */
  failures: string[];
}

/** The world's CI check: the one its branch rule requires. */
export const CI_CHECK = "ci";

export const FLAKE_TITLE = "ci: infrastructure flake";
export const FLAKE_SUMMARY =
  "Infrastructure flake: the runner lost its connection to the job before `npm test` started (exit 143). Nothing in this commit caused it; push a new commit to run CI again.";

const PackageJson = z.object({ scripts: z.object({ test: z.string() }).partial().optional() });

export function taskCi(opts: {
  task: LoadedTask;
  gitDir: string;
  now: () => number;
  onRun: (run: CiRunRecord) => void;
}): RepoCi {
  let started = 0;
  return async (c: CiContext): Promise<CiVerdict> => {
    // Only `ci` is this project's job; another name configured on the sandbox is not ours.
    if (c.check !== CI_CHECK) return { conclusion: "neutral", title: c.check, summary: "not run" };
    const at = opts.now();
    // Counted when the run starts, so concurrent runs take their flaky turn in start order.
    started += 1;
    const record = (verdict: CiVerdict, flake: boolean, failures: string[]) => {
      opts.onRun({
        at,
        branch: c.branch,
        sha: c.sha,
        conclusion: verdict.conclusion,
        flake,
        failures,
      });
      return verdict;
    };
    if (started <= opts.task.spec.ci.failFirst) {
      return record(
        { conclusion: "failure", title: FLAKE_TITLE, summary: FLAKE_SUMMARY },
        true,
        [],
      );
    }
    const tree = await readTreeAt(opts.gitDir, c.sha);
    const refusal = scriptRefusal(tree.get("package.json"));
    if (refusal) {
      return record({ conclusion: "failure", title: "ci: npm test", summary: refusal }, false, [
        refusal,
      ]);
    }
    const run = await runChecks(tree, [], () => "");
    const verdict: CiVerdict = run.visible
      ? { conclusion: "success", title: "ci: npm test passed", summary: "All tests passed." }
      : {
          conclusion: "failure",
          title: "ci: npm test failed",
          summary: ["npm test failed:", ...run.failures.slice(0, 20).map((f) => `- ${f}`)].join(
            "\n",
          ),
        };
    return record(verdict, false, run.visible ? [] : run.failures);
  };
}

/**
 * The job runs the tests the way every task's package.json says (`VISIBLE_TEST_SCRIPT`); a
 * head that changed that script would make this CI and a real `npm test` disagree, so it fails
 * saying why instead of passing on tests the project no longer runs.
 */
function scriptRefusal(packageJson: string | undefined): string | null {
  if (packageJson === undefined) return "package.json is missing: `npm test` cannot run.";
  let raw: unknown;
  try {
    raw = JSON.parse(packageJson);
  } catch {
    return "package.json is not valid JSON: `npm test` cannot run.";
  }
  const script = PackageJson.safeParse(raw).data?.scripts?.test;
  if (script === VISIBLE_TEST_SCRIPT) return null;
  return `package.json's test script is ${JSON.stringify(script ?? null)}; this project's CI runs ${JSON.stringify(VISIBLE_TEST_SCRIPT)}: restore it.`;
}
