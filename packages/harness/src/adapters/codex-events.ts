import { z } from "zod";
import { type PriceTable, usdFor } from "../price-table.ts";
import type { AgentVerdict, MeterReading, OutputMeter } from "../slice-types.ts";

const CodexUsage = z.object({
  input_tokens: z.number().default(0),
  cached_input_tokens: z.number().default(0),
  output_tokens: z.number().default(0),
  reasoning_output_tokens: z.number().default(0),
});

/** The `codex exec --json` events this meter reads. */
const CodexEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("thread.started"), thread_id: z.string() }),
  z.object({ type: z.literal("item.started"), item: z.object({ type: z.string() }) }),
  z.object({ type: z.literal("turn.completed"), usage: CodexUsage }),
  z.object({
    type: z.literal("turn.failed"),
    error: z.object({ message: z.string() }).optional(),
  }),
  z.object({ type: z.literal("error"), message: z.string().optional() }),
]);

/** Item types that are the model acting, as opposed to talking or thinking. */
const NON_ACTIONS = new Set(["agent_message", "reasoning", "todo_list"]);

/**
 * Codex reports usage once per turn (turn.completed), so its USD limit can only act when a
 * turn ends; turns for the limit are counted as actions (commands, edits, tool calls).
 */
export function codexEventMeter(prices: PriceTable): OutputMeter {
  let sessionId: string | null = null;
  let actions = 0;
  let usd = 0;
  let tokens = 0;
  let completed = false;
  let failure: string | null = null;

  return {
    onLine(line, stream) {
      if (stream !== "stdout" || !line.startsWith("{")) return;
      let data: unknown;
      try {
        data = JSON.parse(line);
      } catch {
        return;
      }
      const parsed = CodexEvent.safeParse(data);
      if (!parsed.success) return;
      const e = parsed.data;
      if (e.type === "thread.started") sessionId = e.thread_id;
      else if (e.type === "item.started" && !NON_ACTIONS.has(e.item.type)) actions++;
      else if (e.type === "turn.completed") {
        completed = true;
        const u = e.usage;
        // OpenAI counts cached tokens inside input_tokens.
        const cached = Math.min(u.cached_input_tokens, u.input_tokens);
        usd += usdFor(prices, {
          input: u.input_tokens - cached,
          cachedInput: cached,
          output: u.output_tokens,
        });
        tokens += u.input_tokens + u.output_tokens;
      } else if (e.type === "turn.failed") failure = e.error?.message ?? "turn failed";
      else if (e.type === "error") failure = e.message ?? "error";
    },
    reading: (): MeterReading => ({ usd, tokens, turns: actions, sessionId }),
    verdict({ code, signal }): AgentVerdict {
      if (failure !== null) return { kind: "error", message: `codex: ${failure.slice(0, 300)}` };
      if (code !== 0) {
        return {
          kind: "error",
          message: `codex ${code === null ? `was killed by ${signal ?? "a signal"}` : `exited with code ${code}`}; check the provider settings and the output tail`,
        };
      }
      if (!completed) {
        return {
          kind: "error",
          message: "codex exited without turn.completed; check the output tail",
        };
      }
      return { kind: "ok", message: "turn completed" };
    },
  };
}
