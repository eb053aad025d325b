/**
 * One dispatched tick of the tick workflow, its three jobs played in process as the action
 * plays them: `ask` (the claim, or a wait), `agent` (the bench's fixed agent on a checkout of
 * the todo's branch, its claim turned into a result by the harness's own pure mapping, the
 * validation run by us on the tree it left, never taken from the agent), and `report` (the
 * result, then the granted push of the todo branch guarded as the report job guards it, then
 * `pushed`). What each job bills is returned with the slice.
 */
import { createHash } from "node:crypto";
import { AskResponse, type HarnessResult, PushedResponse, ResultResponse } from "@loopx/core";
import { AgentClaim } from "@loopx/harness";
import { type GuardedChange, guardChanges } from "../../../../action/src/guard-changes.ts";
import { missingResult } from "../../../../action/src/missing-result.ts";
import { pushRefusal } from "../../../../action/src/push-refusal.ts";
import type { Profile, Skill, SliceAgent } from "../../agent/agent-types.ts";
import { readGithubTools } from "../../agent/github-read-tools.ts";
import { memoryTree } from "../../agent/memory-tree.ts";
import { toLoopxResult } from "../../agent/to-claim.ts";
import type { Tree } from "../../tasks/load-tasks.ts";
import { runVisible } from "../../tasks/run-hidden.ts";
import { appPush } from "../../world/app-push.ts";
import type { CellWorld } from "../../world/cell-world.ts";
import { formatPatch } from "../../world/patch-files.ts";
import type { BilledJob, SliceRecord } from "../arm-types.ts";
import { billedMinutes, SETUP_MINUTES, SKIP_MINUTES, SLICE_MINUTES } from "../billing.ts";
import { meteredSlice } from "../metered-slice.ts";
import { AGENT_JOB_MINUTES, harnessResult } from "./harness-result.ts";
import type { LoopxOnSandbox } from "./start-app.ts";

/** The login the App's installation pushes as. */
const APP_PUSHER = "loopx[bot]";

export interface PlayedTick {
  route: string;
  ran: boolean;
  todo: string | null;
  jobs: BilledJob[];
  slice: SliceRecord | null;
  /** Why the report did not push, when it refused. */
  refused: string | null;
  /** The App refused the result itself (it came after the lease): the report job failed. */
  resultRefused: boolean;
  /** The report job's runner was lost: nothing reached LoopX, and GitHub failed the run. */
  reportLost: boolean;
  /**
   * GitHub's "Re-run failed jobs" of a lost report job: the report job again (run attempt 2),
   * from the first attempt's outputs and artifacts — the same result, lease token and bundle.
   */
  rerun?: () => Promise<ReportRerun>;
}

/** What a re-run report job did. */
export interface ReportRerun {
  job: BilledJob;
  /** The todo's branch, which the first attempt would have pushed. */
  branch: string;
  /** The App applied the result (else it refused it: the job failed). */
  accepted: boolean;
  /** The files its push changed on the todo's branch. */
  pushedFiles: string[];
  refused: string | null;
}

export async function playTick(opts: {
  loopx: LoopxOnSandbox;
  world: CellWorld;
  issue: number;
  runId: number;
  slot: string;
  /** The agent the job runs (the arm's: scripted, or a real model's CLI). */
  agent: SliceAgent;
  skill: Skill;
  profile: Profile;
  /**
   * Lets `minutes` of the tick's time pass: the agent job's run, during which people act and
   * CI finishes as they would while a runner works (the arm moves every clock).
   */
  elapse: (minutes: number) => Promise<void>;
  /** Minutes the report job waits for a runner (a queue on GitHub's side): 0 unless a fault. */
  reportQueuedMinutes?: number;
  /**
   * The report job's runner is lost mid-job (GitHub: "The hosted runner lost communication
   * with the server"): it neither reports nor pushes, and the run fails.
   */
  reportLost?: boolean;
  /** Called with the tick's id just before the report job sends its result. */
  beforeResult?: (tickId: string) => Promise<void>;
}): Promise<PlayedTick> {
  const { loopx, world, issue, runId } = opts;
  const at = () => world.sandbox.clock.now();
  // The ask and report jobs do no slice: well under a minute, billed as one.
  const askJob = { at: at(), minutes: billedMinutes(SKIP_MINUTES) };
  const asked = await loopx.post(
    "/api/v1/ticks",
    { goal: issue, ...(opts.slot ? { slot: opts.slot } : {}) },
    await loopx.token(runId),
  );
  if (asked.status !== 200) {
    throw new Error(`ask refused (${asked.status}): ${JSON.stringify(asked.body)}`);
  }
  const claim = AskResponse.parse(asked.body);
  const jobs: BilledJob[] = [{ ...askJob, kind: "ask" }];
  if (!claim.run) {
    return {
      route: claim.route,
      ran: false,
      todo: null,
      // The ask answered wait: the whole run skipped its work, as a plain loop's does.
      jobs: [{ ...askJob, kind: "skip" }],
      slice: null,
      refused: null,
      resultRefused: false,
      reportLost: false,
    };
  }

  // The agent job: a checkout of the todo's branch (main's tip when it is new).
  const { tree: base, sha: baseSha } = await world.checkout(claim.branch);
  const tree = memoryTree(base);
  const tools = await readGithubTools(
    { api: world.sandbox.url, repo: world.repo, token: world.token("maintainer") },
    issue,
    claim.branch,
  );
  // The metering proxy holds the slice to the ceiling the ask handed it.
  const { outcome, cutAtUsd } = await meteredSlice(
    opts.agent,
    {
      prompt: claim.briefText,
      tree,
      tools,
      skill: opts.skill,
      profile: opts.profile,
    },
    { usd: claim.limits.usd, hard: claim.limits.usdFrom === "budget" },
  );
  const after = tree.snapshot();
  const changes = diffTrees(base, after);
  jobs.push({ at: at(), kind: "agent", minutes: AGENT_JOB_MINUTES });
  await opts.elapse(SETUP_MINUTES + SLICE_MINUTES);

  let result: HarnessResult;
  let validated: boolean | null = null;
  if (outcome.died) {
    // Killed mid-slice: no result file, nothing committed; the report job stands in a failure.
    result = missingResult(
      claim.todo,
      'the agent job ended with "failure" before writing its result',
    );
  } else {
    validated = changes.length > 0 ? await runVisible(after) : null;
    result = harnessResult({
      todo: claim.todo,
      command: claim.validationCommand,
      claimed: AgentClaim.parse(toLoopxResult(outcome, opts.skill)),
      validated,
      changes,
      tokens: outcome.tokens,
      ceilingUsd: claim.limits.usd,
      cut: cutAtUsd !== null,
      commitSha: changes.length > 0 ? treeSha(after) : null,
    });
  }

  const slice = (pushedFiles: string[], kept = true): SliceRecord => ({
    at: at(),
    todo: outcome.todo,
    progressed: kept && outcome.progressed,
    died: outcome.died,
    tokens: outcome.tokens,
    pushedFiles,
  });
  // The report job, once a runner picks it up (queued time is not billed).
  if (opts.reportQueuedMinutes) await opts.elapse(opts.reportQueuedMinutes);
  jobs.push({ at: at(), kind: "report", minutes: billedMinutes(SKIP_MINUTES) });
  // A report that never pushed: its slice kept nothing, and the job failed.
  const unpushed = (why: { resultRefused: boolean; reportLost: boolean }): PlayedTick => ({
    route: claim.route,
    ran: true,
    todo: claim.todo,
    jobs,
    refused: null,
    ...why,
    slice: slice([], false),
  });
  /** The push the App granted, guarded as the report job guards it, then `pushed`. */
  const pushGranted = async (
    answer: ResultResponse,
    token: () => Promise<string>,
  ): Promise<{ pushedFiles: string[]; refused: string | null }> => {
    const grant = answer.push;
    if (!grant || changes.length === 0 || answer.interrupted === "stopped") {
      return { pushedFiles: [], refused: null };
    }
    if (grant.branch !== claim.branch) {
      throw new Error(`the App granted a push to ${grant.branch}, not ${claim.branch}`);
    }
    // As the report job: the slice's final tree committed onto the branch's head as it is now,
    // or onto the checkout's base when the branch is new; that commit's diff is what is guarded.
    const head = await world.checkout(grant.branch);
    // A branch that is not there yet checks out as main: that is no head to build on.
    const moved = head.sha !== baseSha && head.sha !== (await world.checkout("main")).sha;
    const onto = moved ? head : null;
    const pushing = onto ? diffTrees(onto.tree, after) : changes;
    if (pushing.length === 0) return { pushedFiles: [], refused: null };
    const refusal = pushRefusal(
      guardChanges(pushing, {
        allowWorkflowPaths: grant.allowWorkflowPaths,
        protectedPaths: grant.protectedPaths,
        heldPaths: grant.heldPaths,
      }),
    );
    if (refusal) {
      // A change with workflow files goes to people as the commit's patch.
      const patch = refusal.workflow
        ? await formatPatch(
            onto?.tree ?? base,
            after,
            pushing.map((c) => c.path),
            `${claim.todo}: slice ${claim.tickId}`,
          )
        : null;
      const told = await loopx.post(
        `/api/v1/ticks/${claim.tickId}/pushed`,
        {
          leaseToken: claim.leaseToken,
          branch: grant.branch,
          refused: {
            reason: refusal.reason.slice(0, 300),
            headSha: treeSha(after),
            paths: refusal.paths.slice(0, 50),
            ...(patch !== null ? { patch } : {}),
          },
        },
        await token(),
      );
      if (told.status !== 200)
        throw new Error(`pushed (refused) refused: ${JSON.stringify(told.body)}`);
      return { pushedFiles: [], refused: `${refusal.reason} (${refusal.paths.join(", ")})` };
    }
    const files = Object.fromEntries(
      pushing.map((c) => [c.path, c.status === "D" ? null : (after.get(c.path) ?? null)]),
    );
    const pushed = appPush(
      world,
      grant.branch,
      files,
      APP_PUSHER,
      `${claim.todo}: slice ${claim.tickId}`,
      baseSha,
    );
    if ("refused" in pushed) {
      throw new Error(`the report job's guard let through what GitHub refuses: ${pushed.refused}`);
    }
    const told = await loopx.post(
      `/api/v1/ticks/${claim.tickId}/pushed`,
      {
        leaseToken: claim.leaseToken,
        branch: grant.branch,
        headSha: pushed.pushed,
        paths: pushing.map((c) => c.path),
      },
      await token(),
    );
    if (told.status !== 200) throw new Error(`pushed refused: ${JSON.stringify(told.body)}`);
    PushedResponse.parse(told.body);
    return { pushedFiles: pushing.map((c) => c.path), refused: null };
  };
  // The report job's calls, from `attempt` of the run; null when the App refused the result.
  const report = async (
    attempt: number,
  ): Promise<{ pushedFiles: string[]; refused: string | null } | null> => {
    const token = () => loopx.token(runId, { run_attempt: String(attempt) });
    await opts.beforeResult?.(claim.tickId);
    const sent = await loopx.post(
      `/api/v1/ticks/${claim.tickId}/result`,
      { leaseToken: claim.leaseToken, result },
      await token(),
    );
    // Past its lease, or its tick already ended: the App keeps the result as a record only.
    if (sent.status === 409) return null;
    if (sent.status !== 200) {
      throw new Error(`result refused (${sent.status}): ${JSON.stringify(sent.body)}`);
    }
    return pushGranted(ResultResponse.parse(sent.body), token);
  };
  if (opts.reportLost) {
    return {
      ...unpushed({ resultRefused: false, reportLost: true }),
      rerun: async () => {
        const job: BilledJob = { at: at(), kind: "report", minutes: billedMinutes(SKIP_MINUTES) };
        const done = await report(2);
        return {
          job,
          branch: claim.branch,
          accepted: done !== null,
          pushedFiles: done?.pushedFiles ?? [],
          refused: done?.refused ?? null,
        };
      },
    };
  }
  const reported = await report(1);
  if (reported === null) return unpushed({ resultRefused: true, reportLost: false });
  return {
    route: claim.route,
    ran: true,
    todo: claim.todo,
    jobs,
    refused: reported.refused,
    resultRefused: false,
    reportLost: false,
    slice: slice(reported.pushedFiles),
  };
}

/** The slice's changes as the report job's raw diff would list them (regular files only). */
function diffTrees(before: Tree, after: Map<string, string>): GuardedChange[] {
  const out: GuardedChange[] = [];
  for (const [path, content] of after) {
    const old = before.get(path);
    if (old === undefined) out.push({ path, oldMode: "000000", newMode: "100644", status: "A" });
    else if (old !== content) out.push({ path, oldMode: "100644", newMode: "100644", status: "M" });
  }
  for (const path of before.keys()) {
    if (!after.has(path)) out.push({ path, oldMode: "100644", newMode: "000000", status: "D" });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A stand-in for the agent's local commit: named by its tree, as it is never on GitHub. */
function treeSha(files: Map<string, string>): string {
  const h = createHash("sha1");
  for (const [path, content] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    h.update(`${path}\0${content}\0`);
  }
  return h.digest("hex");
}
