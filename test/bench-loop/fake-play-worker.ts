/**
 * A stand-in for bench/loop/play-worker.ts that plays no world: it answers each job after a
 * short wait with metrics that say which process played it and when, and misbehaves on
 * the arms named for it — `boom` answers an error, `die` exits mid-play, `garbage` answers
 * metrics that are not metrics.
 */
import type { CellMetrics } from "../../bench/loop/cell-metrics.ts";
import { type PlayAnswer, PlayJob } from "../../bench/loop/cell-pool.ts";

const PLAY_MS = 150;

let playing: Promise<void> = Promise.resolve();
process.on("message", (message) => {
  playing = playing.then(() => answer(message));
});
process.on("disconnect", () => {
  void playing.then(() => process.exit(0));
});

async function answer(message: unknown): Promise<void> {
  const job = PlayJob.parse(message);
  const startedAt = Date.now();
  await new Promise((resolve) => setTimeout(resolve, PLAY_MS));
  if (job.arm === "die") process.exit(3);
  if (job.arm === "boom") {
    send({
      id: job.id,
      error: `Error: ${job.arm} went off\n    at fakePlay (fake-play-worker.ts)`,
    });
    return;
  }
  const metrics: CellMetrics = {
    landed: 0,
    total: 0,
    slices: 0,
    wastedSlices: 0,
    billedMinutes: startedAt,
    tokens: 0,
    usd: 0,
    pullsOpened: 0,
    pullsUnmerged: 0,
    duplicateComments: 0,
    personActs: process.pid,
    personMinutes: Date.now(),
    injectedLanded: null,
    faults: [job.task, job.fault, job.profile, job.arm],
    unrecovered: [],
    usdPastBudget: null,
  };
  if (job.arm === "garbage") {
    process.send?.({ id: job.id, metrics: { ...metrics, landed: "all of them" } });
    return;
  }
  send({ id: job.id, metrics });
}

function send(reply: PlayAnswer): void {
  if (process.connected) process.send?.(reply);
}
