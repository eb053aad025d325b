import type { RunJob } from "@loopx/github";

/**
 * Runner minutes as GitHub bills them: each job's time from `started_at` to `completed_at`
 * (now, for the report job still running), rounded UP to a whole minute per job; skipped
 * jobs never ran. Only the jobs API's clock counts: nothing the agent job wrote.
 */
export function billedMinutes(jobs: readonly RunJob[], now: Date): number {
  let minutes = 0;
  for (const job of jobs) {
    if (job.conclusion === "skipped" || job.startedAt === null) continue;
    const end = job.completedAt ?? now;
    const ms = Math.max(0, end.getTime() - job.startedAt.getTime());
    minutes += Math.max(1, Math.ceil(ms / 60_000));
  }
  return minutes;
}
