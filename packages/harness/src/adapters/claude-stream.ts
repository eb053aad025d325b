import { z } from "zod";
import { type PriceTable, usdFor } from "../price-table.ts";
import type { AgentVerdict, MeterReading, OutputMeter } from "../slice-types.ts";

const Usage = z.object({
  input_tokens: z.number().default(0),
  output_tokens: z.number().default(0),
  cache_creation_input_tokens: z.number().nullish(),
  cache_read_input_tokens: z.number().nullish(),
});

/** The lines of `claude -p --output-format stream-json --verbose` this meter reads. */
const ClaudeLine = z.discriminatedUnion("type", [
  z.object({ type: z.literal("system"), session_id: z.string().optional() }),
  z.object({
    type: z.literal("stream_event"),
    event: z.discriminatedUnion("type", [
      z.object({
        type: z.literal("message_start"),
        message: z.object({ id: z.string(), usage: Usage.optional() }),
      }),
      z.object({
        type: z.literal("message_delta"),
        usage: z.object({ output_tokens: z.number() }).optional(),
      }),
    ]),
  }),
  z.object({
    type: z.literal("assistant"),
    session_id: z.string().optional(),
    message: z.object({ id: z.string(), usage: Usage.optional() }),
  }),
  z.object({
    type: z.literal("result"),
    subtype: z.string(),
    is_error: z.boolean(),
    num_turns: z.number().int().nonnegative().optional(),
    total_cost_usd: z.number().nonnegative().optional(),
    usage: Usage.optional(),
    session_id: z.string().optional(),
    result: z.string().nullish(),
  }),
]);
type ResultLine = Extract<z.infer<typeof ClaudeLine>, { type: "result" }>;

interface MessageUsage {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

/**
 * Tracks Claude Code's spend and turns as they stream, so a USD or turn limit can stop it
 * early; the final `result` line, when it comes, is authoritative.
 */
export function claudeStreamMeter(prices: PriceTable): OutputMeter {
  const messages = new Map<string, MessageUsage>();
  let current: string | null = null;
  let sessionId: string | null = null;
  let result: ResultLine | null = null;

  const reading = (): MeterReading => {
    if (result) {
      const u = result.usage;
      // A result printed on SIGTERM carries the cost but zero usage: keep what streamed.
      const usd = result.total_cost_usd;
      return {
        usd: usd !== undefined && usd > 0 ? usd : estimate(),
        tokens: Math.max(u ? totalTokens(u) : 0, streamedTokens()),
        turns: result.num_turns ?? messages.size,
        sessionId: result.session_id ?? sessionId,
      };
    }
    return { usd: estimate(), tokens: streamedTokens(), turns: messages.size, sessionId };
  };
  const estimate = () => {
    let usd = 0;
    for (const m of messages.values()) {
      usd += usdFor(prices, {
        input: m.input,
        output: m.output,
        cachedInput: m.cacheRead,
        cacheWrite: m.cacheWrite,
      });
    }
    return usd;
  };
  const streamedTokens = () => {
    let n = 0;
    for (const m of messages.values()) n += m.input + m.output + m.cacheRead + m.cacheWrite;
    return n;
  };
  const note = (id: string, usage: z.infer<typeof Usage> | undefined) => {
    current = id;
    const known = messages.get(id);
    if (known && !usage) return;
    const u = usage ?? { input_tokens: 0, output_tokens: 0 };
    messages.set(id, {
      input: u.input_tokens,
      output: Math.max(known?.output ?? 0, u.output_tokens),
      cacheWrite: u.cache_creation_input_tokens ?? 0,
      cacheRead: u.cache_read_input_tokens ?? 0,
    });
  };

  return {
    onLine(line, stream) {
      if (stream !== "stdout" || !line.startsWith("{")) return;
      let data: unknown;
      try {
        data = JSON.parse(line);
      } catch {
        return;
      }
      const parsed = ClaudeLine.safeParse(data);
      if (!parsed.success) return;
      const l = parsed.data;
      if (l.type === "system" || l.type === "assistant") sessionId = l.session_id ?? sessionId;
      if (l.type === "assistant") note(l.message.id, l.message.usage);
      if (l.type === "result") result = l;
      if (l.type === "stream_event") {
        const e = l.event;
        if (e.type === "message_start") note(e.message.id, e.message.usage);
        else if (e.usage && current) {
          const m = messages.get(current);
          if (m) m.output = Math.max(m.output, e.usage.output_tokens);
        }
      }
    },
    reading,
    verdict({ code, signal }): AgentVerdict {
      if (!result) {
        return {
          kind: "error",
          message:
            code === 0
              ? "claude exited without a result line; check the output tail"
              : `claude ${code === null ? `was killed by ${signal ?? "a signal"}` : `exited with code ${code}`} before a result; check ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY`,
        };
      }
      if (result.subtype === "error_max_turns") {
        return { kind: "turn_limit", message: "claude stopped at --max-turns" };
      }
      if (result.subtype === "error_max_budget_usd") {
        return { kind: "over_budget", message: "claude stopped at --max-budget-usd" };
      }
      if (result.is_error || result.subtype !== "success") {
        const detail = result.result ? `: ${result.result.slice(0, 300)}` : "";
        return { kind: "error", message: `claude reported ${result.subtype}${detail}` };
      }
      return { kind: "ok", message: "success" };
    },
  };
}

function totalTokens(u: z.infer<typeof Usage>): number {
  return (
    u.input_tokens +
    u.output_tokens +
    (u.cache_creation_input_tokens ?? 0) +
    (u.cache_read_input_tokens ?? 0)
  );
}
