/**
 * A `bench:loop` worker process (forked by cell-pool.ts): plays one cell at a time for the
 * parent, each in a world of its own exactly as the bench plays it in process, and answers
 * with the cell's metrics or the error that stopped it. It exits once the parent lets go of
 * it (its channel closes) and the play it holds has ended.
 */
import { z } from "zod";
import { armNamed } from "./arms/all-arms.ts";
import type { CellSpec } from "./arms/arm-types.ts";
import { type PlayAnswer, PlayJob } from "./cell-pool.ts";
import { cellOf, playCell } from "./play-cell.ts";
import { type LoadedTask, loadTasks } from "./tasks/load-tasks.ts";

if (!process.send) {
  console.error(
    "bench/loop/play-worker.ts plays cells for bench:loop's pool; run `npm run bench:loop` instead",
  );
  process.exit(2);
}

const corpus = loadTasks();
// A corpus that fails to load fails each play with its error, rather than the worker at once.
corpus.catch(() => {});
let playing: Promise<void> = Promise.resolve();

process.on("message", (message) => {
  // One play at a time: two worlds in one worker would race each other for its one core.
  playing = playing.then(() => answer(message)).catch(unanswerable);
});
process.on("disconnect", () => {
  void playing.then(() => process.exit(0));
});

async function answer(message: unknown): Promise<void> {
  const job = PlayJob.safeParse(message);
  if (!job.success) {
    send({ id: null, error: `that is not a play job: ${z.prettifyError(job.error)}` });
    return;
  }
  const { id } = job.data;
  try {
    const metrics = await playCell(await cellFor(job.data), armNamed(job.data.arm));
    send({ id, metrics });
  } catch (err) {
    send({ id, error: errorText(err) });
  }
}

/** The cell as run-loop.ts builds it: cellOf the task, with its pair's partner when named. */
async function cellFor(job: PlayJob): Promise<CellSpec> {
  const all = await corpus;
  const task = taskNamed(all, job.task);
  const cell = cellOf(task, job.fault, job.profile, job.budgetUsd);
  return job.partner === undefined ? cell : { ...cell, partner: taskNamed(all, job.partner) };
}

function taskNamed(all: readonly LoadedTask[], id: string): LoadedTask {
  const task = all.find((t) => t.spec.id === id);
  if (!task) {
    throw new Error(
      `no task "${id}" in bench/loop/tasks; the tasks are ${all.map((t) => t.spec.id).join(", ")}`,
    );
  }
  return task;
}

function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const stack = err.stack ?? "";
  return stack.includes(err.message) ? stack : `${err.message}\n${stack}`;
}

/** The answer could not be sent: the pool learns it from the exit and fails the play. */
function unanswerable(err: unknown): never {
  console.error(`bench:loop worker: ${errorText(err)}`);
  process.exit(1);
}

function send(reply: PlayAnswer): void {
  // A parent that let go no longer wants the answer.
  if (process.connected) process.send?.(reply);
}
