/**
 * The small JSON file the real model writes when it stops: its claims about the slice, which
 * the scripted agent returns directly. Read with zod; a missing or malformed file is a slice
 * that claimed nothing, never a guess.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";

export const ModelResult = z.strictObject({
  /** The todo it worked on, by title; null when it only planned. */
  todo: z.string().trim().min(1).max(256).nullable(),
  finishedTodo: z.boolean(),
  allDone: z.boolean(),
  proposedTodos: z.array(z.string().trim().min(1).max(256)).max(20).default([]),
  questions: z.array(z.string().trim().min(1).max(500)).max(10).default([]),
  summary: z.string().max(2000).default(""),
});
export type ModelResult = z.infer<typeof ModelResult>;

/** What the prompt shows the model, so the file and the schema cannot drift apart. */
export const RESULT_EXAMPLE = {
  todo: "the title of the todo you worked on, or null if you only planned",
  finishedTodo: false,
  allDone: false,
  proposedTodos: ["titles of todos still to do"],
  questions: [],
  summary: "one or two sentences on what you did",
};

export type ResultRead = { ok: true; result: ModelResult } | { ok: false; why: string };

export function readModelResult(path: string): ResultRead {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { ok: false, why: "it wrote no result file" };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { ok: false, why: `its result file is not JSON (${String(err)})` };
  }
  const parsed = ModelResult.safeParse(data);
  if (!parsed.success) {
    return { ok: false, why: `its result file is malformed: ${z.prettifyError(parsed.error)}` };
  }
  return { ok: true, result: parsed.data };
}
