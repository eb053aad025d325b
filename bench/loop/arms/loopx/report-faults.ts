/**
 * The faults that strike a tick's report job, on the cell's second agent job: in a
 * lease-expired cell the report waits for a runner past the tick's lease, as when GitHub has
 * none free; in a report-lost cell its runner is lost, and GitHub fails the run.
 */
import { KILLED_JOB } from "../arm-run.ts";
import type { FaultName } from "../arm-types.ts";
import type { PlayedTick } from "./play-tick.ts";

/** Longer than any tick's lease (its wall limit and the report's share). */
export const REPORT_QUEUE_MINUTES = 60;

export interface ReportFault {
  /** What play-tick is told for this tick's report job. */
  play: { reportQueuedMinutes?: number; reportLost?: boolean };
  /** The fault lines of what struck, once the tick has played. */
  struck(tickNo: number, played: PlayedTick): string[];
}

/** The report fault for the tick played after `agentJobs` agent jobs, if one strikes it. */
export function reportFault(fault: FaultName, agentJobs: number): ReportFault {
  const here = agentJobs === KILLED_JOB - 1;
  const late = fault === "lease-expired" && here;
  const lost = fault === "report-lost" && here;
  return {
    play: {
      ...(late ? { reportQueuedMinutes: REPORT_QUEUE_MINUTES } : {}),
      ...(lost ? { reportLost: true } : {}),
    },
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
