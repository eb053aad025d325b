/**
 * `codex exec --json` for one slice, and what its JSONL events say: the tokens of every
 * completed turn and whether it failed. Codex has no turn limit of its own, so the watcher
 * counts its actions (commands, edits, tool calls) and stops it past the limit.
 */
import { z } from "zod";
import type { CliEnd } from "./real-claude-cli.ts";
import type { CliRun } from "./real-run-cli.ts";

export function codexArgs(o: { prompt: string; workDir: string; responsesUrl: string }): string[] {
  return [
    "exec",
    "--json",
    "--skip-git-repo-check",
    "--color",
    "never",
    // Codex's own sandbox needs bubblewrap on the machine; the slice's directory is a
    // throwaway copy, and only what is left in it is read back.
    "--sandbox",
    "danger-full-access",
    "-C",
    o.workDir,
    "-c",
    "model_provider=bench",
    "-c",
    `model_providers.bench={name="bench",base_url=${JSON.stringify(o.responsesUrl)},wire_api="responses",env_key="OPENAI_API_KEY"}`,
    o.prompt,
  ];
}

const Usage = z.object({
  input_tokens: z.number().nonnegative().default(0),
  output_tokens: z.number().nonnegative().default(0),
});

const CodexEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("item.started"), item: z.object({ type: z.string() }) }),
  z.object({ type: z.literal("turn.completed"), usage: Usage }),
  z.object({ type: z.literal("turn.failed"), error: z.object({ message: z.string() }).optional() }),
  z.object({ type: z.literal("error"), message: z.string().optional() }),
]);
type CodexEvent = z.infer<typeof CodexEvent>;

/** Items that are the model talking or thinking, not acting. */
const NOT_ACTIONS = new Set(["agent_message", "reasoning", "todo_list"]);

function eventOf(line: string): CodexEvent | null {
  if (!line.trim().startsWith("{")) return null;
  try {
    const parsed = CodexEvent.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Stops codex once it starts more actions than `maxTurns`. */
export function codexWatcher(maxTurns: number): (line: string) => string | null {
  let actions = 0;
  return (line) => {
    const e = eventOf(line);
    if (e?.type !== "item.started" || NOT_ACTIONS.has(e.item.type)) return null;
    actions += 1;
    return actions > maxTurns ? `its turn limit (${maxTurns} actions)` : null;
  };
}

export function codexEnd(run: CliRun): CliEnd {
  if (run.spawnError !== null)
    return { tokens: 0, failure: `codex did not start: ${run.spawnError}` };
  let tokens = 0;
  let completed = false;
  let failed: string | null = null;
  for (const line of run.stdout.split("\n")) {
    const e = eventOf(line);
    if (e?.type === "turn.completed") {
      completed = true;
      // OpenAI counts cached input inside input_tokens.
      tokens += e.usage.input_tokens + e.usage.output_tokens;
    } else if (e?.type === "turn.failed") failed = e.error?.message ?? "turn failed";
    else if (e?.type === "error") failed = e.message ?? "error";
  }
  if (run.stopped !== null) return { tokens, failure: `codex was stopped: ${run.stopped}` };
  if (failed !== null) return { tokens, failure: `codex failed: ${failed.slice(0, 500)}` };
  if (run.code !== 0 || !completed) {
    return {
      tokens,
      failure: `codex ended without completing its turn (exit code ${run.code}): ${run.stderrTail.trim().slice(-500) || "no output"}`,
    };
  }
  return { tokens, failure: null };
}
