/**
 * A stand-in for bench/loop/play-worker.ts that plays no world: it answers each job after a
 * short wait with metrics that say which process played it and when, and misbehaves on
 * the arms named for it — `boom` answers an error, `die` exits mid-play, `garbage` answers
 * metrics that are not metrics.
 */
import { type PlayAnswer, PlayJob } from "../../bench/loop/cell-pool.ts";
import { noMetrics } from "./no-metrics.ts";

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
  const metrics = noMetrics({
    billedMinutes: startedAt,
    personActs: process.pid,
    personMinutes: Date.now(),
    faults: [job.task, job.fault, job.profile, job.arm],
  });
  if (job.arm === "garbage") {
    process.send?.({ id: job.id, metrics: { ...metrics, landed: "all of them" } });
    return;
  }
  send({ id: job.id, metrics });
}

function send(reply: PlayAnswer): void {
  if (process.connected) process.send?.(reply);
}
