/**
 * One tick played through the committed action bundle (`action/dist/index.js`) as child
 * processes, against the REAL App's tick API from the tick harness: ask → agent → report, each
 * in its own tick directory with only the files its job downloads (the brief for the agent,
 * the lease plus the agent's result and bundle for the report). Like the sandbox's workflow
 * runner, minus the workflow: a test sets the env a step would get (e.g. a harness's key, the
 * LOOPX_MINUTE_MS knob) and reads each phase's outputs and summary.
 */
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import type { GoalState } from "@loopx/core";
import { expect } from "vitest";
import { type ActionRun, runAction } from "../../action/test/support/run-action.ts";
import { allowUnknownRun, type TickHarness } from "./tick-api-harness.ts";

const GIT_ENV = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: process.env.HOME ?? "/tmp",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_TERMINAL_PROMPT: "0",
};

export interface PlayedTick {
  ask: ActionRun;
  /** Null when ask said run=false: the workflow skips the agent and report jobs. */
  agent: ActionRun | null;
  report: ActionRun | null;
  tickId: string | null;
}

export interface PlayOptions {
  goal: number;
  /** The workflow run (one claim per run attempt). */
  runId: number;
  /** Extra `with:` inputs of the ask step (e.g. max-usd). */
  ask?: Record<string, string>;
  /** Extra `with:` inputs of the agent step (harness, shell-command, model…). */
  agent?: Record<string, string>;
  /** The agent step's env (a harness's key and base URL, test knobs). */
  agentEnv?: Record<string, string>;
  /** The agent step's RUNNER_TEMP (its file commands live there) and tick directory. */
  agentDirs?: { runnerTemp?: string; tickDir?: string };
  /** Runs the agent step as this uid (its directories handed to it), e.g. a user without sudo. */
  agentUser?: number;
  /** Runs once the agent job has the brief (its path), before the agent step starts. */
  beforeAgent?: (briefPath: string) => Promise<void>;
  /** Runs between the agent and the report, as the upload and download steps would. */
  beforeReport?: () => Promise<void>;
}

export async function playTick(h: TickHarness, opts: PlayOptions): Promise<PlayedTick> {
  const dirs = {
    ask: temp("loopx-ask-"),
    agent: opts.agentDirs?.tickDir ?? temp("loopx-agent-"),
    report: temp("loopx-report-"),
  };
  const github = {
    GITHUB_REPOSITORY: h.repo.fullName,
    GITHUB_SERVER_URL: h.sandbox.url,
    GITHUB_API_URL: h.sandbox.url,
    GITHUB_RUN_ID: String(opts.runId),
  };
  const ask = await runAction(
    {
      phase: "ask",
      goal: String(opts.goal),
      "api-url": h.apiUrl,
      "tick-dir": dirs.ask,
      ...opts.ask,
    },
    { ...github, ...idTokenEnv(h, opts.runId) },
  );
  if (ask.outputs.run !== "true") return { ask, agent: null, report: null, tickId: null };

  // The agent job: a fresh checkout (no stored credential), the brief, no OIDC, a read token.
  const token = h.sandbox.createUserToken("alice");
  const workspace = join(temp("loopx-ws-"), "ws");
  await git(tmpdir(), "clone", "--quiet", h.sandbox.cloneUrl(h.repo.fullName, token), workspace);
  await git(workspace, "remote", "set-url", "origin", h.sandbox.cloneUrl(h.repo.fullName));
  copy(dirs.ask, dirs.agent, "ask.json");
  await opts.beforeAgent?.(join(dirs.agent, "ask.json"));
  const agentEnv = { HOME: temp("loopx-home-"), ...opts.agentEnv };
  if (opts.agentUser !== undefined) {
    const owned = [dirname(workspace), dirs.agent, agentEnv.HOME, opts.agentDirs?.runnerTemp];
    for (const dir of owned) if (dir) await chownTree(dir, opts.agentUser);
  }
  const agent = await runAction(
    { phase: "agent", "tick-dir": dirs.agent, token, ...opts.agent },
    { ...github, GITHUB_WORKSPACE: workspace, ...agentEnv },
    opts.agentDirs?.runnerTemp,
    opts.agentUser,
  );
  await opts.beforeReport?.();

  copy(dirs.ask, dirs.report, "lease.json");
  copy(dirs.agent, dirs.report, "result.json");
  copy(dirs.agent, dirs.report, "branch.bundle");
  const report = await runAction(
    {
      phase: "report",
      "api-url": h.apiUrl,
      "tick-dir": dirs.report,
      "agent-result": agent.code === 0 ? "success" : "failure",
    },
    { ...github, ...idTokenEnv(h, opts.runId) },
  );
  return { ask, agent, report, tickId: ask.outputs["tick-id"] ?? null };
}

/** What the runner sets for a job granted `id-token: write` in run `runId` of the tick workflow. */
export function idTokenEnv(h: TickHarness, runId: number): Record<string, string> {
  allowUnknownRun(h.sandbox, runId);
  const ref = `${h.repo.fullName}/.github/workflows/loopx-tick.yml@refs/heads/main`;
  const c = h.sandbox.oidc.requestCredentials({
    repository: h.repo.fullName,
    repository_id: String(h.repo.id),
    repository_owner: h.repo.owner,
    repository_owner_id: String(h.repo.ownerId),
    workflow_ref: ref,
    job_workflow_ref: ref,
    event_name: "workflow_dispatch",
    run_id: String(runId),
    run_attempt: "1",
  });
  return { ACTIONS_ID_TOKEN_REQUEST_URL: c.url, ACTIONS_ID_TOKEN_REQUEST_TOKEN: c.token };
}

function temp(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** What an artifact download does: the file, when the uploading job produced it. */
function copy(from: string, to: string, name: string): void {
  if (existsSync(join(from, name))) copyFileSync(join(from, name), join(to, name));
}

async function chownTree(dir: string, uid: number): Promise<void> {
  await promisify(execFile)("chown", ["-R", `${uid}:${uid}`, dir]);
}

/** Asynchronous: the sandbox serves git from this very process. */
async function git(cwd: string, ...args: string[]): Promise<void> {
  await promisify(execFile)("git", args, { cwd, env: GIT_ENV });
}

/**
 * A slice the action killed cannot account for itself: its tick failed with `failure`, spent no
 * slot, and was charged at least the tick cap, in the tick and in the goal's ledger. The goal
 * after, for the scenario's own checks.
 */
export async function expectChargedTheCap(
  h: TickHarness,
  before: GoalState,
  tickId: string | null,
  failure: string,
): Promise<GoalState | null> {
  const after = await h.store.loadGoal(before.goal.id);
  const charged = after?.ticks.find((t) => t.id === tickId);
  expect(charged).toMatchObject({ outcome: "failed", failure, slotSpent: false });
  const cap = before.goal.tickCap;
  expect(charged?.cost?.usd).toBe(cap.usd);
  expect(charged?.cost?.tokens).toBe(cap.tokens);
  expect(charged?.cost?.runnerMinutes).toBeGreaterThanOrEqual(cap.runnerMinutes);
  expect(after?.goal.spent.usd).toBe(before.goal.spent.usd + cap.usd);
  expect(after?.goal.spent.ticks).toBe(before.goal.spent.ticks + 1);
  return after;
}
