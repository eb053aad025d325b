/**
 * The faults that strike a tick's report job, on the cell's second agent job: in a
 * lease-expired cell the report waits for a runner past the tick's lease, as when GitHub has
 * none free; in a report-lost cell its runner is lost, and GitHub fails the run; in a
 * report-rerun cell the same, and then the maintainer, finding the failed run, re-runs its
 * failed jobs an hour later: the report job again, with the first attempt's result and bundle,
 * whatever LoopX did meanwhile.
 */
import type { Sandbox } from "../../../../packages/sandbox/src/index.ts";
import type { RepoRest } from "../../world/rest.ts";
import { KILLED_JOB } from "../arm-run.ts";
import type { BilledJob, FaultName } from "../arm-types.ts";
import { pullsFrom } from "./github-readings.ts";
import type { PlayedTick, ReportRerun } from "./play-tick.ts";

/** Longer than any tick's lease (its wall limit and the report's share). */
export const REPORT_QUEUE_MINUTES = 60;
/** How long after the run failed the maintainer clicks "Re-run failed jobs". */
export const RERUN_AFTER_MINUTES = 60;

export interface ReportFault {
  /** What play-tick is told for this tick's report job. */
  play: { reportQueuedMinutes?: number; reportLost?: boolean };
  /** Minutes after the failed run that a person re-runs its failed jobs (null: nobody does). */
  rerunAfterMinutes: number | null;
  /** The fault lines of what struck, once the tick has played. */
  struck(tickNo: number, played: PlayedTick): string[];
}

/** The report fault for the tick played after `agentJobs` agent jobs, if one strikes it. */
export function reportFault(fault: FaultName, agentJobs: number): ReportFault {
  const here = agentJobs === KILLED_JOB - 1;
  const late = fault === "lease-expired" && here;
  const rerun = fault === "report-rerun" && here;
  const lost = (fault === "report-lost" || rerun) && here;
  return {
    play: {
      ...(late ? { reportQueuedMinutes: REPORT_QUEUE_MINUTES } : {}),
      ...(lost ? { reportLost: true } : {}),
    },
    rerunAfterMinutes: rerun ? RERUN_AFTER_MINUTES : null,
    struck(tickNo, played) {
      if (!played.ran) return [];
      if (late) {
        const answer = played.resultRefused
          ? "the App refused its late result"
          : "the App took its result";
        return [
          `tick ${tickNo}'s report waited ${REPORT_QUEUE_MINUTES} min for a runner; ${answer}`,
        ];
      }
      if (played.reportLost) {
        return [
          `tick ${tickNo}'s report job lost its runner: nothing reached LoopX, GitHub failed the run`,
        ];
      }
      return [];
    },
  };
}

/** The failed runs whose report job a person re-runs, and when. */
export interface PersonReruns {
  /** Remembers `played`'s lost report job when the fault has a person re-run it. */
  schedule(fault: ReportFault, played: PlayedTick, runId: number, tickNo: number): void;
  /** Re-runs the report jobs due by now ("Re-run failed jobs"): what they billed and did. */
  playDue(): Promise<{ jobs: BilledJob[]; lines: string[] }>;
  /** When the pending re-runs are due, for the clock to stop there. */
  dueTimes(): number[];
}

export function personReruns(world: {
  sandbox: Sandbox;
  repo: string;
  rest: RepoRest;
  /** Lets the App take in what the re-run did (its webhooks, its outbox). */
  settle: () => Promise<void>;
}): PersonReruns {
  const { sandbox } = world;
  const [owner = ""] = world.repo.split("/");
  const pending: {
    at: number;
    runId: number;
    tickNo: number;
    rerun: () => Promise<ReportRerun>;
  }[] = [];
  return {
    schedule(fault, played, runId, tickNo) {
      if (fault.rerunAfterMinutes === null || !played.rerun) return;
      const at = sandbox.clock.now() + fault.rerunAfterMinutes * 60_000;
      pending.push({ at, runId, tickNo, rerun: played.rerun });
    },
    async playDue() {
      const jobs: BilledJob[] = [];
      const lines: string[] = [];
      for (const due of pending.filter((r) => r.at <= sandbox.clock.now())) {
        pending.splice(pending.indexOf(due), 1);
        // The run is in progress again until its report job ends.
        sandbox.updateRun(due.runId, "in_progress");
        const rerun = await due.rerun();
        jobs.push(rerun.job);
        // What became of the branch's pull request, when the re-run changed the branch.
        const pulls =
          rerun.pushedFiles.length > 0 ? await pullsFrom(world.rest, owner, rerun.branch) : "";
        lines.push(rerunLine(due.tickNo, rerun, pulls));
        sandbox.updateRun(due.runId, "completed", rerun.accepted ? "success" : "failure");
        await world.settle();
      }
      return { jobs, lines };
    },
    dueTimes: () => pending.map((r) => r.at),
  };
}

/** The fault line of a re-run report job: what the App made of a result from a tick it ended. */
function rerunLine(tickNo: number, rerun: ReportRerun, pulls: string): string {
  const what = !rerun.accepted
    ? "the App refused its result, as its tick had ended"
    : rerun.pushedFiles.length > 0
      ? `the App applied its result and its push changed ${rerun.pushedFiles.join(", ")} on ${rerun.branch} (${pulls})`
      : `the App applied its result${rerun.refused ? `; its push was refused: ${rerun.refused}` : "; it pushed nothing new"}`;
  return `the maintainer re-ran tick ${tickNo}'s failed report job: ${what}`;
}
