/**
 * The tick workflow as shipped, on the sandbox's runner, in place of play-tick.ts's in-process
 * jobs: LoopX's loopx-tick.yml verbatim, the real action bundle in all three jobs, the agent
 * job's jail, and the bench's agent's CLI run by the harness (the shell command, or the real
 * `claude` told by a scripted model to run it), reading its tools anonymously from the public
 * repository, as the jail holds no token. Each run the App dispatches is started on the runner
 * only when the arm plays it, so the simulated clock and the people keep the order play-tick
 * gives them; time passes once the run is over.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { GITHUB_ACTION_STAND_INS } from "../../../../packages/demo/src/stand-ins/index.ts";
import type { WorkflowJob } from "../../../../packages/sandbox/src/index.ts";
import {
  bash,
  startScriptedAnthropic,
  text,
} from "../../../../packages/sandbox/src/models/index.ts";
import type { Profile, Skill } from "../../agent/agent-types.ts";
import type { Tree } from "../../tasks/load-tasks.ts";
import type { CellWorld } from "../../world/cell-world.ts";
import { readTreeAt } from "../../world/git-tree.ts";
import type { BilledJob, SliceRecord } from "../arm-types.ts";
import { billedMinutes, SETUP_MINUTES, SKIP_MINUTES, SLICE_MINUTES } from "../billing.ts";
import { AGENT_JOB_MINUTES } from "./harness-result.ts";
import type { PlayedTick } from "./play-tick.ts";
import type { LoopxOnSandbox } from "./start-app.ts";

const ROOT = resolve(import.meta.dirname, "../../../..");
/** A run the runner has not finished in this long is stuck: the bench stops with its logs. */
const RUN_TIMEOUT_MS = 180_000;

/** The tick workflow LoopX ships, which the callers in docs/workflows.md run. */
export const SHIPPED_TICK_WORKFLOW = readFileSync(
  join(ROOT, ".github/workflows/loopx-tick.yml"),
  "utf8",
);

export interface ActionTicks {
  play(opts: { runId: number; elapse: (minutes: number) => Promise<void> }): Promise<PlayedTick>;
  close(): Promise<void>;
}

/** The harnesses a tick can run the agent's CLI through. */
export type ActionHarness = "shell" | "claude-code";

const MODEL_KEY = "sk-ant-bench-0123456789abcdef";

/**
 * Points the sandbox's runner at the shipped action and the agent's CLI for one cell. The
 * caller has pushed SHIPPED_TICK_WORKFLOW as the repository's tick workflow, with
 * `.github/loopx.yml` naming `harness`, and keeps the runner disabled, so the App's
 * dispatches are recorded until played. With `claude-code` the real `claude` runs, its model
 * a scripted server whose one move is to run the agent's CLI with its Bash tool.
 */
export async function actionTicks(opts: {
  harness: ActionHarness;
  loopx: LoopxOnSandbox;
  world: CellWorld;
  skill: Skill;
  profile: Profile;
  seed: number;
  goalId: string;
}): Promise<ActionTicks> {
  const { loopx, world } = opts;
  const { sandbox } = world;
  // The jail hides the machine's temporary directory and the runner's home, not the checkout
  // of LoopX itself: the skill file lives beside it, readable by the jail's user.
  const parent = join(ROOT, ".loopx");
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, "bench-agent-"));
  chmodSync(dir, 0o755);
  const skillFile = join(dir, "skill.json");
  writeFileSync(skillFile, JSON.stringify(opts.skill), { mode: 0o644 });
  const command = [
    `AGENT_SKILL=${quote(skillFile)}`,
    `AGENT_PROFILE=${opts.profile}`,
    `AGENT_SEED=${opts.seed}`,
    `AGENT_GITHUB_API=${quote(sandbox.url)}`,
    quote(join(ROOT, "node_modules/.bin/tsx")),
    quote(join(ROOT, "bench/loop/agent/agent-cli.ts")),
  ].join(" ");
  sandbox.runner.actions = {
    "loopx/loopx@v1": join(ROOT, "action/dist/index.js"),
    ...GITHUB_ACTION_STAND_INS,
  };
  const model =
    opts.harness === "claude-code"
      ? await startScriptedAnthropic({
          turns: [{ content: [bash(command)] }, { content: [text("Done.")] }],
          apiKey: MODEL_KEY,
        })
      : null;
  sandbox.runner.vars = model
    ? { ANTHROPIC_BASE_URL: model.url }
    : { LOOPX_SHELL_COMMAND: command };
  sandbox.runner.secrets = model ? { ANTHROPIC_API_KEY: MODEL_KEY } : {};

  return {
    async play({ runId, elapse }) {
      const run = sandbox.store.workflowRuns.get(runId);
      if (!run) throw new Error(`the sandbox has no run ${runId}`);
      const at = () => sandbox.clock.now();
      const before = branchHeads(world);
      // The App's URL changes when it restarts: the variable is read as the run starts.
      sandbox.runner.vars.LOOPX_API_URL = loopx.apiUrl;
      sandbox.runner.enabled = true;
      try {
        sandbox.runner.enqueue(run);
      } finally {
        // Runs the App dispatches from now on wait for the arm again.
        sandbox.runner.enabled = false;
      }
      const jobs = () => [...sandbox.store.workflowJobs.values()].filter((j) => j.runId === runId);
      const logsOf = () =>
        jobs()
          .map((j) => `--- ${j.key}: ${j.conclusion}\n${j.log}`)
          .join("\n");
      const finished = await withTimeout(sandbox.runner.wait(runId), runId, logsOf);
      const job = (key: string): WorkflowJob | undefined => jobs().find((j) => j.key === key);
      const ask = job("ask");
      if (ask?.conclusion !== "success") {
        throw new Error(`run ${runId}'s ask job ended ${ask?.conclusion ?? "unrun"}:\n${logsOf()}`);
      }
      const ran = ask.outputs.run === "true";
      // An ask that answered wait: the whole run skipped its work (as play-tick bills it).
      const billed: BilledJob[] = [
        { at: at(), kind: ran ? "ask" : "skip", minutes: billedMinutes(SKIP_MINUTES) },
      ];
      const todo = ask.outputs.todo || null;
      if (!ran) {
        return {
          route: "wait",
          ran: false,
          todo: null,
          jobs: billed,
          slice: null,
          refused: null,
          resultRefused: false,
          reportLost: false,
        };
      }
      billed.push({ at: at(), kind: "agent", minutes: AGENT_JOB_MINUTES });
      const slice = await sliceOf(opts, runId, ask.outputs.branch ?? "", before);
      await elapse(SETUP_MINUTES + SLICE_MINUTES);
      billed.push({ at: at(), kind: "report", minutes: billedMinutes(SKIP_MINUTES) });
      // Dated as play-tick dates a slice: when its report is in.
      slice.at = at();
      return {
        route: `run ${finished.conclusion ?? "completed"}`,
        ran: true,
        todo,
        jobs: billed,
        slice,
        refused: null,
        resultRefused: job("report")?.conclusion === "failure",
        reportLost: false,
      };
    },
    async close() {
      await model?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The slice as the App recorded its tick and as GitHub holds its branch: the agent's own
 * output stays in its jail, so nothing here is its word. The todo is the skill's when the
 * LoopX todo bears a skill title (a plan, or a todo LoopX made for a review, bears none);
 * tokens are the harness's metered count (none for a shell command).
 */
async function sliceOf(
  ctx: { world: CellWorld; loopx: LoopxOnSandbox; goalId: string; skill: Skill },
  runId: number,
  branch: string,
  before: Map<string, string>,
): Promise<SliceRecord> {
  const { world } = ctx;
  const state = await ctx.loopx.store.loadGoal(ctx.goalId);
  const tick = state?.ticks.find((t) => t.run?.id === runId) ?? null;
  const todo = state?.todos.find((t) => t.key === tick?.todo) ?? null;
  const title = todo?.title ?? null;
  const skillTitles = new Set(
    [...ctx.skill.plan, ...ctx.skill.discoveries.map((d) => d.todo)].map((t) => t.title),
  );
  const gitDir = world.sandbox.gitDir(world.repo);
  const head = branchHeads(world).get(branch);
  const was = before.get(branch) ?? before.get("main");
  const pushedFiles =
    head !== undefined && head !== before.get(branch) && was !== undefined
      ? changedPaths(await readTreeAt(gitDir, was), await readTreeAt(gitDir, head))
      : [];
  return {
    at: 0,
    todo: title !== null && skillTitles.has(title) ? title : null,
    // A plan is not progress on the work, as the agent itself reports it (run-agent.ts).
    progressed:
      todo?.kind !== "plan" && (tick?.outcome === "progress" || tick?.outcome === "completed"),
    died: tick?.failure === "host_failure",
    tokens: tick?.cost?.tokens ?? 0,
    pushedFiles,
  };
}

function changedPaths(a: Tree, b: Tree): string[] {
  const paths = new Set([...a.keys(), ...b.keys()]);
  return [...paths].filter((p) => a.get(p) !== b.get(p)).sort();
}

function branchHeads(world: CellWorld): Map<string, string> {
  const { sandbox } = world;
  return sandbox.store.git(sandbox.repoByFullName(world.repo)).branches();
}

function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

async function withTimeout<T>(p: Promise<T>, runId: number, logs: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`run ${runId} not done after ${RUN_TIMEOUT_MS} ms:\n${logs()}`)),
        RUN_TIMEOUT_MS,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}
