/**
 * Claude Code in print mode for one slice, and what its final JSON says: the tokens it used
 * and whether it ended well. A turn limit or an error is a failure, never a success.
 */
import { z } from "zod";
import type { CliRun } from "./real-run-cli.ts";

/**
 * What a slice may do: read and edit files, and run the project's tests. Granted explicitly
 * (`--dangerously-skip-permissions` is refused as root, and would grant everything).
 */
export const CLAUDE_TOOLS = [
  "Read",
  "Write",
  "Edit",
  "Glob",
  "Grep",
  "Bash(npm test:*)",
  "Bash(npm run test:*)",
  "Bash(node --test:*)",
];

export function claudeArgs(o: { prompt: string; maxTurns: number; resultDir: string }): string[] {
  return [
    "-p",
    o.prompt,
    "--output-format",
    "json",
    "--max-turns",
    String(o.maxTurns),
    // The result file lives outside the work tree: the one other place it may write.
    "--add-dir",
    o.resultDir,
    // Variadic: last, so it cannot swallow another flag's value.
    "--allowedTools",
    ...CLAUDE_TOOLS,
  ];
}

const Usage = z.object({
  input_tokens: z.number().nonnegative().default(0),
  output_tokens: z.number().nonnegative().default(0),
  cache_creation_input_tokens: z.number().nonnegative().default(0),
  cache_read_input_tokens: z.number().nonnegative().default(0),
});

const ClaudeResult = z.object({
  type: z.literal("result"),
  subtype: z.string(),
  is_error: z.boolean(),
  num_turns: z.number().int().nonnegative().optional(),
  result: z.string().nullish(),
  errors: z.array(z.string()).optional(),
  usage: Usage.optional(),
});

/** How the CLI ended: the tokens it reported, and why it failed (null when it did not). */
export interface CliEnd {
  tokens: number;
  failure: string | null;
}

export function claudeEnd(run: CliRun, maxTurns: number): CliEnd {
  if (run.spawnError !== null)
    return { tokens: 0, failure: `claude did not start: ${run.spawnError}` };
  const out = lastJson(run.stdout, ClaudeResult);
  const u = out?.usage;
  const tokens = u
    ? u.input_tokens + u.output_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens
    : 0;
  if (run.stopped !== null) return { tokens, failure: `claude was stopped: ${run.stopped}` };
  if (out === null) {
    return {
      tokens,
      failure: `claude printed no result JSON (exit code ${run.code}): ${run.stderrTail.trim() || "no output"}`,
    };
  }
  if (out.subtype === "error_max_turns") {
    return { tokens, failure: `claude stopped at its turn limit (${maxTurns} turns)` };
  }
  if (out.is_error || out.subtype !== "success" || run.code !== 0) {
    const said = out.errors?.join("; ") || out.result || run.stderrTail.trim();
    return {
      tokens,
      failure: `claude reported an error (${out.subtype}, exit code ${run.code})${said ? `: ${said.slice(0, 500)}` : ""}`,
    };
  }
  return { tokens, failure: null };
}

/** The last stdout line that parses as `schema` (the final JSON follows any warnings). */
function lastJson<T extends z.ZodType>(stdout: string, schema: T): z.infer<T> | null {
  const lines = stdout.split("\n").filter((l) => l.trim().startsWith("{"));
  for (const line of lines.reverse()) {
    try {
      const parsed = schema.safeParse(JSON.parse(line));
      if (parsed.success) return parsed.data;
    } catch {
      // A line that only looks like JSON: keep looking.
    }
  }
  return null;
}
