import { z } from "zod";
import { TodoKey, Uuid } from "../schemas/primitives.ts";
import type { GoalState } from "../schemas/state.ts";
import type { Todo } from "../schemas/todo.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { commit } from "./commit.ts";
import {
  addEffect,
  appendEvidence,
  begin,
  emit,
  findTodo,
  isRefused,
  parseInput,
  refuse,
  resetBackoff,
} from "./kit.ts";

export const AwaitJobInput = z.object({
  todo: TodoKey,
  tickId: Uuid,
  /** The job as the config allowed it: name, workflow file, inputs as GitHub takes them. */
  job: z.object({
    name: z.string().min(1).max(100),
    workflow: z.string().min(1).max(200),
    inputs: z.record(z.string(), z.string()),
  }),
  branch: z.string().min(1).max(255),
});
export type AwaitJobInput = z.input<typeof AwaitJobInput>;

const waitingJob = (todo: Todo) => (todo.resumeWhen?.kind === "job" ? todo.resumeWhen : null);

/**
 * A slice handed a listed job to GitHub: the todo waits on that run (not runnable, so no tick
 * is dispatched for it and nothing is spent) and the outbox dispatches the workflow on the
 * todo's branch, keyed by the tick so a retried effect never dispatches twice.
 */
export function awaitJob(
  state: GoalState,
  input: AwaitJobInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(AwaitJobInput, input);
  if (isRefused(parsed)) return parsed;
  const d = begin(state, ctx, { statuses: ["active", "paused"] });
  if (isRefused(d)) return d;
  const todo = findTodo(d, parsed.todo);
  if (isRefused(todo)) return todo;
  if (todo.status !== "ready") {
    return refuse(
      "invalid_state",
      `${todo.key} is ${todo.status}: only an open todo can wait on a job; report progress, not completion, when handing work to a job.`,
    );
  }
  const { job } = parsed;
  todo.resumeWhen = {
    kind: "job",
    job: job.name,
    workflow: job.workflow,
    branch: parsed.branch,
    since: ctx.now,
    runId: null,
  };
  todo.updatedAt = ctx.now;
  const inputs = Object.entries(job.inputs)
    .map(([k, v]) => `${k}=${v}`)
    .join(", ");
  appendEvidence(d, {
    kind: "note",
    todo: todo.key,
    tickId: parsed.tickId,
    summary: `job ${job.name} (${job.workflow}) dispatched on ${parsed.branch}${inputs ? ` with ${inputs}` : ""}; ${todo.key} waits for its run`,
  });
  emit(d, "todo.awaiting_job", { todo: todo.key, job: job.name, workflow: job.workflow });
  addEffect(d, {
    kind: "dispatch_job",
    key: `job:${parsed.tickId}`,
    todo: todo.key,
    job: job.name,
    workflow: job.workflow,
    ref: parsed.branch,
    inputs: job.inputs,
  });
  return commit(d);
}

export const RefuseJobInput = z.object({
  todo: TodoKey,
  tickId: Uuid,
  reason: z.string().min(1).max(450),
});

/** A job request the config does not allow: evidence saying why, and nothing dispatched. */
export function refuseJob(
  state: GoalState,
  input: z.input<typeof RefuseJobInput>,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(RefuseJobInput, input);
  if (isRefused(parsed)) return parsed;
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  appendEvidence(d, {
    kind: "note",
    todo: parsed.todo,
    tickId: parsed.tickId,
    summary: `job request refused, nothing dispatched: ${parsed.reason}`,
  });
  return commit(d);
}

/** GitHub said which run the dispatch started: only that run wakes the todo. */
export function jobStarted(
  state: GoalState,
  input: { todo: string; job: string; runId: number },
  ctx: TransitionContext,
): TransitionResult {
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const todo = findTodo(d, input.todo);
  if (isRefused(todo)) return todo;
  const rw = waitingJob(todo);
  if (rw === null || rw.job !== input.job) {
    return refuse("invalid_state", `${todo.key} no longer waits on job ${input.job}.`);
  }
  if (rw.runId !== null) return refuse("duplicate", `${todo.key} already knows its job's run.`);
  rw.runId = input.runId;
  d.status = false;
  emit(d, "todo.job_started", { todo: todo.key, job: rw.job, runId: input.runId });
  return commit(d);
}

export const JobRunCompleted = z.object({
  todo: TodoKey,
  run: z.object({
    id: z.number().int().positive(),
    conclusion: z.string().max(50),
    /** The run's name as GitHub shows it: CI may set it from anything, so it is data. */
    title: z.string().max(300),
    url: z.url().nullable(),
  }),
});

/**
 * The run a todo waited on completed: its conclusion and name become evidence observed on
 * GitHub (data in the next brief, never the agent's word), and the todo is runnable again,
 * which wakes the loop.
 */
export function finishJob(
  state: GoalState,
  input: z.input<typeof JobRunCompleted>,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(JobRunCompleted, input);
  if (isRefused(parsed)) return parsed;
  const d = begin(state, ctx, { statuses: ["active", "paused"] });
  if (isRefused(d)) return d;
  const todo = findTodo(d, parsed.todo);
  if (isRefused(todo)) return todo;
  const rw = waitingJob(todo);
  if (rw === null) return refuse("invalid_state", `${todo.key} waits on no job.`);
  const { run } = parsed;
  todo.resumeWhen = null;
  todo.updatedAt = ctx.now;
  appendEvidence(d, {
    kind: "check",
    todo: todo.key,
    url: run.url,
    summary: `job ${rw.job} (${rw.workflow}) run ${run.id} concluded ${run.conclusion}: ${run.title}`,
  });
  emit(d, "todo.job_finished", { todo: todo.key, job: rw.job, runId: run.id });
  resetBackoff(d, `job ${rw.job} finished`);
  return commit(d);
}

/**
 * GitHub refused to dispatch the job (its workflow lacks the trigger or the inputs the config
 * lists, the branch is gone): the todo stops waiting, with GitHub's answer as evidence, so the
 * next slice sees why instead of the goal waiting for a run that will never come.
 */
export function jobNotDispatched(
  state: GoalState,
  input: { todo: string; job: string; message: string },
  ctx: TransitionContext,
): TransitionResult {
  const d = begin(state, ctx, { statuses: ["active", "paused"] });
  if (isRefused(d)) return d;
  const todo = findTodo(d, input.todo);
  if (isRefused(todo)) return todo;
  const rw = waitingJob(todo);
  if (rw === null || rw.job !== input.job || rw.runId !== null) {
    return refuse("invalid_state", `${todo.key} no longer waits on job ${input.job}'s dispatch.`);
  }
  todo.resumeWhen = null;
  todo.updatedAt = ctx.now;
  appendEvidence(d, {
    kind: "note",
    todo: todo.key,
    summary: `GitHub refused to dispatch job ${rw.job} (${rw.workflow}) on ${rw.branch}: ${input.message}`,
  });
  emit(d, "todo.job_finished", { todo: todo.key, job: rw.job, runId: null });
  return commit(d);
}
